/*
 * command_json.c: structured actions and results of the command grammar
 * (command_json.h).
 */
#include "command_json.h"

#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "numtext.h"
#include "quote.h"

static const struct {
	const char *name;
	enum stackfall_cmd_kind kind;
	bool coords;
} action_types[] = {
	{ "place", STACKFALL_CMD_PLACE, true }, { "preview", STACKFALL_CMD_PREVIEW, true },
	{ "hold", STACKFALL_CMD_HOLD, false }, { "resign", STACKFALL_CMD_RESIGN, false },
	{ "options", STACKFALL_CMD_OPTIONS, false },
};
#define NTYPES (sizeof action_types / sizeof action_types[0])

static void
invalid(struct stackfall_cmd *out, const char *why)
{
	out->kind = STACKFALL_CMD_INVALID;
	snprintf(out->reason, sizeof out->reason, "%s", why);
}

/* An unsigned field of a structured action. */
static bool
number(const json_t *v, const char *name, uint32_t *out, struct stackfall_cmd *cmd)
{
	const json_t *x = json_object_get(v, name);
	char why[ENGINE_REASON_MAX];

	if (x == NULL || !json_is_integer(x) || json_integer_value(x) < 0 ||
	    json_integer_value(x) > UINT32_MAX) {
		snprintf(why, sizeof why, "'%s' must be an unsigned integer", name);
		invalid(cmd, why);
		return false;
	}
	*out = (uint32_t)json_integer_value(x);
	return true;
}

/* "the action's 'type' must be place, preview or options", naming the
 * allowed types in the table's order. */
static void
bad_type(struct stackfall_cmd *out, unsigned allowed)
{
	char why[ENGINE_REASON_MAX];
	size_t i, n = 0, k = 0, len;

	for (i = 0; i < NTYPES; i++)
		n += (allowed & COMMAND_KIND(action_types[i].kind)) != 0;
	len = (size_t)snprintf(why, sizeof why, "the action's 'type' must be");
	for (i = 0; i < NTYPES && len < sizeof why; i++) {
		if (!(allowed & COMMAND_KIND(action_types[i].kind)))
			continue;
		k++;
		len += (size_t)snprintf(why + len, sizeof why - len, "%s%s",
		    k == 1 ? " " : k == n ? " or " : ", ", action_types[i].name);
	}
	invalid(out, why);
}

void
command_action_from_json(const json_t *v, unsigned allowed, struct stackfall_cmd *out)
{
	const json_t *t;
	const char *key;
	json_t *val;
	size_t i;
	char why[ENGINE_REASON_MAX];

	memset(out, 0, sizeof *out);
	if (!json_is_object(v)) {
		invalid(out, "the action must be an object such as {\"type\": \"place\", \"rotation\": 1, "
		    "\"column\": 4}");
		return;
	}
	t = json_object_get(v, "type");
	for (i = 0; json_is_string(t) && i < NTYPES; i++)
		if ((allowed & COMMAND_KIND(action_types[i].kind)) &&
		    strcmp(json_string_value(t), action_types[i].name) == 0)
			break;
	if (!json_is_string(t) || i == NTYPES) {
		bad_type(out, allowed);
		return;
	}
	json_object_foreach((json_t *)v, key, val) {
		(void)val;
		if (strcmp(key, "type") == 0 || (action_types[i].coords &&
		    (strcmp(key, "rotation") == 0 || strcmp(key, "column") == 0)))
			continue;
		char q[QUOTE_SHORT];

		snprintf(why, sizeof why, "a %s action has no field '%s'", action_types[i].name,
		    text_quote(q, sizeof q, key, 40));
		invalid(out, why);
		return;
	}
	out->kind = (uint8_t)action_types[i].kind;
	if (action_types[i].coords && (!number(v, "rotation", &out->rotation, out) ||
	    !number(v, "column", &out->column, out)))
		return;
}

static json_t *
figures_json(json_t *o, const struct tetromino_figures *f)
{
	json_object_set_new_nocheck(o, "lines", json_integer(f->lines));
	json_object_set_new_nocheck(o, "holes", json_integer(f->holes));
	json_object_set_new_nocheck(o, "max_height", json_integer(f->max_height));
	json_object_set_new_nocheck(o, "bumpiness", json_integer(f->bumpiness));
	return o;
}

/* The command as sent, trimmed; for a structured action its canonical text. */
static json_t *
command_text(const struct stackfall_cmd *c, const char *text)
{
	char buf[64];

	if (text != NULL)
		return json_stringn(text + c->start, c->len);
	switch (c->kind) {
	case STACKFALL_CMD_PLACE:
	case STACKFALL_CMD_PREVIEW:
		snprintf(buf, sizeof buf, "%s %u %u", stackfall_cmd_name(c->kind), (unsigned)c->rotation,
		    (unsigned)c->column);
		break;
	case STACKFALL_CMD_INVALID:
		snprintf(buf, sizeof buf, "(invalid action)");
		break;
	default:
		snprintf(buf, sizeof buf, "%s", stackfall_cmd_name(c->kind));
		break;
	}
	return json_string(buf);
}

json_t *
command_result_json(const struct command_result *r)
{
	json_t *o = json_object(), *opts;
	size_t k;

	json_object_set_new_nocheck(o, "command", command_text(r->cmd, r->text));
	json_object_set_new_nocheck(o, "ok", json_boolean(r->ok));
	json_object_set_new_nocheck(o, "message", json_string(r->message));
	if (r->ok && r->cmd->kind == STACKFALL_CMD_OPTIONS) {
		opts = json_array();
		for (k = 0; k < r->noptions; k++) {
			const struct tetromino_option *op = &r->options[k];
			char cmd[32];
			json_t *e = json_object();

			snprintf(cmd, sizeof cmd, "place %u %u", op->rotation, op->column);
			json_object_set_new_nocheck(e, "rotation", json_integer(op->rotation));
			json_object_set_new_nocheck(e, "column", json_integer(op->column));
			json_object_set_new_nocheck(e, "command", json_string(cmd));
			json_array_append_new(opts, figures_json(e, &op->figures));
		}
		json_object_set_new_nocheck(o, "options", opts);
	}
	if (r->ok && r->cmd->kind == STACKFALL_CMD_PREVIEW) {
		json_t *p = json_object();

		json_object_set_new_nocheck(p, "board_text", json_string(r->board_text));
		json_object_set_new_nocheck(o, "preview", figures_json(p, r->figures));
	}
	return o;
}

bool
command_read_request(const json_t *body, unsigned allowed, struct command_request *rq, char *msg,
    size_t cap)
{
	const json_t *c = json_object_get(body, "command");
	const json_t *a = json_object_get(body, "action");

	if (c != NULL && a != NULL) {
		snprintf(msg, cap, "send either 'command' (text) or 'action' (an object), not both");
		return false;
	}
	if (c == NULL && a == NULL) {
		snprintf(msg, cap, "missing field 'command' (for example \"place 1 4\") or 'action'");
		return false;
	}
	if (c != NULL && !json_is_string(c)) {
		snprintf(msg, cap, "field 'command' must be a string");
		return false;
	}
	if (c != NULL) {
		rq->text = json_string_value(c);
		rq->parse = stackfall_cmd_parse(rq->text, json_string_length(c), rq->cmds,
		    STACKFALL_CMD_MAX, &rq->ncmds);
	} else {
		rq->text = NULL;
		rq->parse = STACKFALL_PARSE_OK;
		command_action_from_json(a, allowed, &rq->cmds[0]);
		rq->ncmds = 1;
	}
	return true;
}

bool
command_refused(const struct command_request *rq, const char *example, struct game_turn *t)
{
	if (rq->parse == STACKFALL_PARSE_OK)
		return false;
	t->refused = true;
	if (rq->parse == STACKFALL_PARSE_EMPTY) {
		t->refusal = API_ERR_EMPTY_COMMAND;
		snprintf(t->reason, sizeof t->reason,
		    "the request holds no command: try \"options\" or \"%s\"", example);
	} else {
		t->refusal = API_ERR_TOO_MANY_COMMANDS;
		snprintf(t->reason, sizeof t->reason,
		    "more than %d commands in one request: nothing was run", STACKFALL_CMD_MAX);
	}
	return true;
}

void
command_move_text(const struct stackfall_cmd *c, char *out, size_t cap)
{
	if (c->kind == STACKFALL_CMD_PLACE)
		snprintf(out, cap, "{\"column\":%u,\"rotation\":%u,\"type\":\"place\"}",
		    (unsigned)c->column, (unsigned)c->rotation);
	else
		snprintf(out, cap, "{\"type\":\"%s\"}", stackfall_cmd_name(c->kind));
}

/* ---- the same, written (jw.h) ---- */

static void
figures_write(struct jw *w, const struct tetromino_figures *f)
{
	jw_kint(w, "lines", f->lines);
	jw_kint(w, "holes", f->holes);
	jw_kint(w, "max_height", f->max_height);
	jw_kint(w, "bumpiness", f->bumpiness);
}

/* A field jansson's checked constructor would leave out (not UTF-8) is
 * left out here too. */
static void
checked_stringn(struct jw *w, const char *key, const char *s, size_t n)
{
	if (!jw_utf8(s, n))
		return;
	jw_kstringn(w, key, s, n);
}

void
command_result_write(struct jw *w, const struct command_result *r)
{
	char buf[64];
	size_t k;

	jw_object(w);
	if (r->text != NULL)
		checked_stringn(w, "command", r->text + r->cmd->start, r->cmd->len);
	else {
		switch (r->cmd->kind) {
		case STACKFALL_CMD_PLACE:
		case STACKFALL_CMD_PREVIEW:
			snprintf(buf, sizeof buf, "%s %u %u", stackfall_cmd_name(r->cmd->kind),
			    (unsigned)r->cmd->rotation, (unsigned)r->cmd->column);
			break;
		case STACKFALL_CMD_INVALID:
			snprintf(buf, sizeof buf, "(invalid action)");
			break;
		default:
			snprintf(buf, sizeof buf, "%s", stackfall_cmd_name(r->cmd->kind));
			break;
		}
		checked_stringn(w, "command", buf, strlen(buf));
	}
	jw_kbool(w, "ok", r->ok);
	checked_stringn(w, "message", r->message, strlen(r->message));
	if (r->ok && r->cmd->kind == STACKFALL_CMD_OPTIONS) {
		jw_key(w, "options");
		jw_array(w);
		for (k = 0; k < r->noptions; k++) {
			const struct tetromino_option *op = &r->options[k];
			char cmd[48];
			size_t n = 6;

			/* "place R C", without printf: an options answer has dozens. */
			memcpy(cmd, "place ", 6);
			n += numtext_i64(cmd + n, op->rotation);
			cmd[n++] = ' ';
			numtext_i64(cmd + n, op->column);
			jw_object(w);
			jw_kint(w, "rotation", op->rotation);
			jw_kint(w, "column", op->column);
			checked_stringn(w, "command", cmd, strlen(cmd));
			figures_write(w, &op->figures);
			jw_object_end(w);
		}
		jw_array_end(w);
	}
	if (r->ok && r->cmd->kind == STACKFALL_CMD_PREVIEW) {
		jw_key(w, "preview");
		jw_object(w);
		checked_stringn(w, "board_text", r->board_text, strlen(r->board_text));
		figures_write(w, r->figures);
		jw_object_end(w);
	}
	jw_object_end(w);
}
