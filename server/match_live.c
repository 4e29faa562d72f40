/*
 * match_live.c: the tick host (match_live.h): one thread that runs every
 * real-time match of the daemon on the monotonic clock, the inputs each
 * tick applies and records, their store jobs, the disconnects and the
 * frames of the streams.
 *
 * Invariants under the host's mutex: a live match's inputs are
 * recorded[0..nrecorded), of which [0..committed) are stored and
 * [committed..flush_to) are in the one store job in flight (flushing);
 * queue[0..nqueue) arrived since the last tick, and the next tick applies
 * them all, in that order, so that a request's last input has the
 * sequence number nrecorded + nqueue when it is queued, and its tick is
 * the match's next. A waiting request (struct ack) is suspended and is
 * resumed exactly once, by whoever unlinks it. While the match shows its
 * result (over) neither the state nor the record changes, so the end's
 * job may read them without the mutex.
 *
 * Streams are match_hub streams under the key match_id * 16 + viewer + 1
 * (viewer -1 a spectator, else a seat), each viewer's frames its own.
 *
 * The thread sleeps until the next tick of any match is due (each match
 * keeps the time of its own tick 0), so a tick's lateness is the
 * machine's wake-up delay, not a grid's phase.
 *
 * Workload: some tens of matches of a few seats; a tick is a few
 * microseconds of the ruleset's, a frame a few KB of JSON a viewer with a
 * stream open, and at most one store job a match in flight.
 */
#include "match_live.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "log.h"
#include "match.h"
#include "match_hub.h"
#include "match_ticks.h"

#define KEYS_PER_MATCH 16          /* stream keys a match: MATCH_PLAYERS_MAX + 1 of them used */
#define NO_TICK UINT32_MAX
#define STREAM_BYTES (256 * 1024)  /* what one stream may hold unsent */
#define STALE_NS INT64_C(15000000000) /* streams looked after: heartbeat, over or gone */

struct ack {
	struct request        *req;
	struct match_live_ack *out;
	size_t                 seq_end;   /* answered once recorded[0..seq_end) are stored */
	struct ack            *next;
};

struct live {
	int64_t                   id;
	const struct match_rules *mr;
	const struct match_ticks *mt;
	struct store_match_row   *row;    /* the row at the start: seats, seed, cap (malloc'd) */
	struct match_rules_record rec;    /* row and st as api/ reads them, for the frames */
	void                     *st;     /* the state after `tick` ticks */
	void                     *ev;     /* the last tick's events */
	struct match_totals       totals;
	uint8_t                   totals_bytes[MATCH_TOTALS_SIZE];
	int64_t                   t0_ns;  /* monotonic: when tick 0 was due */
	uint32_t                  tick;   /* ticks run */
	struct match_input       *queue;
	size_t                    nqueue, capqueue;
	unsigned                  queued[MATCH_PLAYERS_MAX];
	struct match_input       *recorded;
	size_t                    nrecorded, caprecorded, committed, flush_to;
	bool                      flushing;
	struct ack               *acks;
	uint32_t                  closed_since[MATCH_PLAYERS_MAX]; /* NO_TICK while a stream is open */
	bool                      disconnected[MATCH_PLAYERS_MAX];
	bool                      over, ending;
	int64_t                   end_at_ns;     /* monotonic: when the result has been shown */
	struct live              *next;
};

struct match_live {
	struct app        *app;
	struct match_hub  *hub;
	match_live_finish  finish;
	void              *finish_ctx;
	pthread_mutex_t    mu;
	pthread_t          thread;
	bool               started, stop;
	struct live       *list;
	unsigned           nlive;
	uint64_t           ticks, late_ticks, lateness[12], inputs, disconnects, flushes, failures;
};

static const int64_t lateness_edges_us[11] = { 100, 200, 500, 1000, 2000, 5000, 10000, 20000,
	50000, 100000, 200000 };

static int64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t
stream_key(int64_t id, int viewer)
{
	return id * KEYS_PER_MATCH + viewer + 1;
}

static int64_t
period_ns(const struct live *l)
{
	return 1000000000 / (int64_t)l->mt->rate;
}

static struct live *
find(struct match_live *h, int64_t id)
{
	struct live *l;

	for (l = h->list; l != NULL; l = l->next)
		if (l->id == id)
			return l;
	return NULL;
}

static void
live_free(struct live *l)
{
	if (l == NULL)
		return;
	free(l->row);
	free(l->st);
	free(l->ev);
	free(l->queue);
	free(l->recorded);
	free(l);
}

/* Under the mutex: resumes every waiting request whose inputs are
 * recorded[0..upto), with status. */
static void
answer_acks(struct live *l, size_t upto, int status)
{
	struct ack **p = &l->acks, *a;

	while ((a = *p) != NULL) {
		if (a->seq_end > upto) {
			p = &a->next;
			continue;
		}
		*p = a->next;
		request_resume(a->req, status);
		free(a);
	}
}

static bool
grow(struct match_input **a, size_t *cap, size_t need)
{
	struct match_input *b;
	size_t c = *cap ? *cap : 64;

	if (need <= *cap)
		return true;
	while (c < need)
		c *= 2;
	if ((b = realloc(*a, c * sizeof *b)) == NULL)
		return false;
	*a = b;
	*cap = c;
	return true;
}

/* ---- the store jobs ---- */

struct flush {
	struct store_job          job;
	struct match_live        *h;
	int64_t                   id;
	size_t                    from, to;
	struct store_match_input *in;
};

static enum store_result
flush_run(struct store_conn *c, void *arg)
{
	struct flush *f = arg;

	return store_match_inputs_insert(c, f->id, (int64_t)f->from, f->in, f->to - f->from);
}

static void
flush_done(struct store_job *job)
{
	struct flush *f = (struct flush *)job;
	struct match_live *h = f->h;
	struct live *l;

	pthread_mutex_lock(&h->mu);
	if ((l = find(h, f->id)) != NULL) {
		l->flushing = false;
		if (job->status == STORE_JOB_COMMITTED) {
			l->committed = f->to;
			answer_acks(l, l->committed, STORE_JOB_COMMITTED);
		} else {
			/* Applied but not stored: those waiting hear of the outage;
			 * the next tick's job tries these inputs again. */
			h->failures++;
			answer_acks(l, f->to, (int)job->status);
		}
	}
	pthread_mutex_unlock(&h->mu);
	free(f->in);
	free(f);
}

/* Under the mutex: the inputs recorded and not stored, to the store. */
static void
flush(struct match_live *h, struct live *l)
{
	struct flush *f;
	size_t k;

	if (l->flushing || l->ending || l->committed == l->nrecorded)
		return;
	if ((f = calloc(1, sizeof *f)) == NULL ||
	    (f->in = calloc(l->nrecorded - l->committed, sizeof *f->in)) == NULL) {
		free(f);
		return; /* the next tick tries again */
	}
	f->h = h;
	f->id = l->id;
	f->from = l->committed;
	f->to = l->nrecorded;
	for (k = f->from; k < f->to; k++) {
		struct store_match_input *s = &f->in[k - f->from];

		s->tick = l->recorded[k].tick;
		s->seat = l->recorded[k].seat;
		l->mt->input_text(&l->recorded[k], s->text, sizeof s->text);
	}
	f->job.run = flush_run;
	f->job.arg = f;
	f->job.done = flush_done;
	l->flushing = true;
	l->flush_to = f->to;
	h->flushes++;
	store_submit(h->app->store, &f->job);
}

/* Under the mutex, the match shown long enough: its end's job, which
 * stores what is not stored yet with it. */
static void
end(struct match_live *h, struct live *l)
{
	struct match_live_end e;

	if (l->ending || l->flushing)
		return; /* the flush in flight first: the end's job stores the rest */
	l->ending = true;
	memset(&e, 0, sizeof e);
	e.id = l->id;
	e.mr = l->mr;
	e.st = l->st;
	memcpy(e.totals, l->totals_bytes, sizeof e.totals);
	e.inputs = l->recorded;
	e.ninputs = l->nrecorded;
	e.committed = l->committed;
	if (!h->finish(h->finish_ctx, &e)) {
		l->ending = false;
		l->end_at_ns = mono_ns() + 1000000000;
	}
}

/* ---- frames ---- */

static const char *
phase_of(const struct live *l)
{
	if (l->over)
		return "result";
	return l->tick <= l->mt->countdown ? "countdown" : "playing";
}

/* Under the mutex: the frame of the tick run last to every viewer with a
 * stream open. */
static void
frames(struct match_live *h, struct live *l, bool with_events)
{
	int viewer;
	char *text;
	size_t len = 0;

	match_totals_encode(&l->totals, l->totals_bytes);
	for (viewer = -1; viewer < (int)l->rec.players; viewer++) {
		int64_t key = stream_key(l->id, viewer);

		if (!match_hub_has_streams(h->hub, key))
			continue;
		text = match_live_event_text(l->mr, &l->rec, viewer, l->tick,
		    phase_of(l), with_events ? l->ev : NULL, &len);
		if (text != NULL)
			match_hub_notify(h->hub, key, text, len, false);
		free(text);
	}
}

/* ---- a tick ---- */

static void
lateness(struct match_live *h, int64_t late_ns, int64_t period)
{
	int64_t us = late_ns / 1000;
	unsigned b = 0;

	while (b < 11 && us >= lateness_edges_us[b])
		b++;
	h->lateness[b]++;
	h->ticks++;
	if (late_ns >= period)
		h->late_ticks++;
}

/* Under the mutex: the seats whose stream has been closed for the grace
 * get the disconnect input, queued for this tick. */
static void
disconnects(struct match_live *h, struct live *l, const struct match_standing *s)
{
	uint32_t grace = MATCH_LIVE_GRACE_S * l->mt->rate;
	unsigned i;

	for (i = 0; i < s->nplayers && i < MATCH_PLAYERS_MAX; i++) {
		if (!(s->alive >> i & 1u) || l->disconnected[i])
			continue;
		if (match_hub_has_streams(h->hub, stream_key(l->id, (int)i))) {
			l->closed_since[i] = NO_TICK;
			continue;
		}
		if (l->closed_since[i] == NO_TICK)
			l->closed_since[i] = l->tick;
		if (l->tick - l->closed_since[i] < grace || !grow(&l->queue, &l->capqueue, l->nqueue + 1))
			continue;
		memset(&l->queue[l->nqueue], 0, sizeof l->queue[0]);
		l->mt->disconnect(&l->queue[l->nqueue]);
		l->queue[l->nqueue++].seat = (uint8_t)i;
		l->disconnected[i] = true;
		h->disconnects++;
	}
}

/* Under the mutex: runs l's next tick. */
static void
run_tick(struct match_live *h, struct live *l, int64_t now)
{
	struct match_standing s;
	size_t k;
	bool keyframe;

	l->mr->standing(l->st, &s);
	disconnects(h, l, &s);
	if (!grow(&l->recorded, &l->caprecorded, l->nrecorded + l->nqueue))
		return; /* out of memory: the tick waits, the inputs with it */
	for (k = 0; k < l->nqueue; k++) {
		l->queue[k].tick = l->tick;
		l->recorded[l->nrecorded + k] = l->queue[k];
	}
	l->mt->tick(l->st, l->queue, l->nqueue, l->ev);
	lateness(h, now - (l->t0_ns + (int64_t)l->tick * period_ns(l)), period_ns(l));
	h->inputs += l->nqueue;
	l->nrecorded += l->nqueue;
	l->nqueue = 0;
	memset(l->queued, 0, sizeof l->queued);
	l->tick++;
	l->mt->totals_add(&l->totals, l->ev);
	l->mr->standing(l->st, &s);
	if (s.over || match_end_of(&s, (uint32_t)l->rec.turn_cap) != MATCH_END_NONE) {
		l->over = true;
		l->end_at_ns = now + (int64_t)MATCH_LIVE_RESULT_S * 1000000000;
	}
	keyframe = l->tick % l->mt->rate == 1;
	if (l->mt->changed(l->ev) || keyframe || l->over)
		frames(h, l, true);
	flush(h, l);
}

/* Streams of matches not live here that are over or gone (a lobby swept,
 * a match another daemon finished) end; every stream gets a comment line,
 * so that proxies keep those that wait in a lobby. Every STALE_NS, on the
 * host's thread, outside its mutex (a read on a reader connection). */
static void
tidy_streams(struct match_live *h)
{
	int64_t keys[256], id;
	size_t n = match_hub_streamed(h->hub, keys, sizeof keys / sizeof keys[0]), i;
	struct store_match_row *row = malloc(sizeof *row);
	struct store_conn *c;
	enum store_result rc;

	match_hub_heartbeat(h->hub);
	if (row == NULL || n == 0) {
		free(row);
		return;
	}
	c = store_reader(h->app->store);
	for (i = 0; i < n; i++) {
		id = keys[i] / KEYS_PER_MATCH;
		if (match_live_has(h, id))
			continue;
		rc = store_match_get_row(c, id, row);
		if (rc == STORE_NOT_FOUND || (rc == STORE_OK && strcmp(row->status, "finished") == 0))
			match_hub_end(h->hub, keys[i]);
		if (rc == STORE_OK)
			store_match_row_free(row);
	}
	store_reader_release(h->app->store, c);
	free(row);
}

/* The host's loop: asleep until the next tick of any match is due (or
 * a result has been shown long enough), so that a tick runs as soon after
 * its time as the machine wakes the thread; then every tick due. */
static void *
host_main(void *arg)
{
	struct match_live *h = arg;
	int64_t idle = 1000000000 / 60, next = mono_ns() + idle, now, probe = 0, stale = next, due;
	struct live *l;
	struct timespec ts;

	for (;;) {
		ts.tv_sec = (time_t)(next / 1000000000);
		ts.tv_nsec = (long)(next % 1000000000);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		now = mono_ns();
		pthread_mutex_lock(&h->mu);
		if (h->stop) {
			pthread_mutex_unlock(&h->mu);
			break;
		}
		next = now + idle;
		for (l = h->list; l != NULL; l = l->next) {
			int64_t p = period_ns(l);
			int n;

			/* Every tick due by now, from the oldest (a late wake runs
			 * those it missed), up to a bound a wake; once over, the
			 * result is shown until its time is up. */
			for (n = 0; n < MATCH_LIVE_CATCH_UP && !l->over && l->t0_ns + (int64_t)l->tick * p <= now;
			    n++)
				run_tick(h, l, now);
			if (l->over && now >= l->end_at_ns)
				end(h, l);
			due = l->over ? (now >= l->end_at_ns ? now + idle : l->end_at_ns) :
			    l->t0_ns + (int64_t)l->tick * p;
			if (due < next)
				next = due;
		}
		pthread_mutex_unlock(&h->mu);
		if (now - probe >= 250000000) {
			match_hub_probe(h->hub);
			probe = now;
		}
		if (now - stale >= STALE_NS) {
			tidy_streams(h);
			stale = now;
		}
	}
	return NULL;
}

/* ---- the interface ---- */

struct match_live *
match_live_new(struct app *app, match_live_finish finish, void *ctx)
{
	struct match_live *h = calloc(1, sizeof *h);

	if (h == NULL)
		return NULL;
	h->app = app;
	h->finish = finish;
	h->finish_ctx = ctx;
	pthread_mutex_init(&h->mu, NULL);
	if ((h->hub = match_hub_new(app->cfg->match_streams, STREAM_BYTES)) == NULL ||
	    pthread_create(&h->thread, NULL, host_main, h) != 0) {
		match_hub_free(h->hub);
		pthread_mutex_destroy(&h->mu);
		free(h);
		return NULL;
	}
	h->started = true;
	return h;
}

void
match_live_quiesce(struct match_live *h)
{
	struct live *l;

	if (h == NULL)
		return;
	pthread_mutex_lock(&h->mu);
	h->stop = true;
	for (l = h->list; l != NULL; l = l->next)
		answer_acks(l, SIZE_MAX, STORE_JOB_FAILED);
	pthread_mutex_unlock(&h->mu);
	if (h->started) {
		pthread_join(h->thread, NULL);
		h->started = false;
	}
	match_hub_close(h->hub);
}

void
match_live_free(struct match_live *h)
{
	struct live *l;

	if (h == NULL)
		return;
	match_live_quiesce(h);
	while ((l = h->list) != NULL) {
		h->list = l->next;
		live_free(l);
	}
	match_hub_free(h->hub);
	pthread_mutex_destroy(&h->mu);
	free(h);
}

bool
match_live_add(struct match_live *h, const struct match_rules *mr, const struct store_match_row *row,
    const void *st, const struct store_match_input *inputs, size_t n)
{
	struct live *l = calloc(1, sizeof *l);
	size_t k, at;
	unsigned i;
	int64_t now = mono_ns();

	if (l == NULL || mr->ticks == NULL)
		goto fail;
	l->id = row->id;
	l->mr = mr;
	l->mt = mr->ticks;
	if ((l->row = malloc(sizeof *l->row)) == NULL || (l->st = malloc(mr->state_size)) == NULL ||
	    (l->ev = calloc(1, l->mt->events_size)) == NULL ||
	    !grow(&l->recorded, &l->caprecorded, n > 0 ? n : 1))
		goto fail;
	memcpy(l->row, row, sizeof *l->row);
	l->row->last_turn = l->row->certificate = NULL; /* the copy owns no text */
	memcpy(l->st, st, mr->state_size);
	for (i = 0; i < MATCH_PLAYERS_MAX; i++)
		l->closed_since[i] = NO_TICK;
	/* A match resumed: its stored inputs played again, tick by tick, up
	 * to the tick after the last. */
	for (k = 0; k < n; k++) {
		if (!l->mt->input_read(inputs[k].text, &l->recorded[k]) || inputs[k].tick < 0 ||
		    (k > 0 && inputs[k].tick < inputs[k - 1].tick) || inputs[k].seat < 0 ||
		    inputs[k].seat >= row->players) {
			log_msg(LOG_ERROR, "match %lld: stored input %zu does not read back",
			    (long long)row->id, k);
			goto fail;
		}
		l->recorded[k].tick = (uint32_t)inputs[k].tick;
		l->recorded[k].seat = (uint8_t)inputs[k].seat;
	}
	for (at = 0; at < n;) {
		size_t first = at;
		struct match_standing s;

		mr->standing(l->st, &s);
		if (s.over)
			break;
		while (at < n && l->recorded[at].tick == l->tick)
			at++;
		l->mt->tick(l->st, l->recorded + first, at - first, l->ev);
		l->mt->totals_add(&l->totals, l->ev);
		l->tick++;
	}
	l->nrecorded = l->committed = n;
	match_totals_encode(&l->totals, l->totals_bytes);
	l->rec.id = row->id;
	l->rec.seed = row->seed;
	l->rec.rules = mr->name;
	l->rec.status = "playing";
	l->rec.end_reason = "";
	l->rec.players = row->players;
	l->rec.joined = row->joined;
	l->rec.turn_cap = row->turn_cap;
	l->rec.ticks = true;
	l->rec.nseats = row->nseats < MATCH_PLAYERS_MAX ? row->nseats : MATCH_PLAYERS_MAX;
	for (i = 0; i < (unsigned)l->rec.nseats; i++)
		l->rec.seats[i].account = l->row->seats[i].name;
	l->rec.state = l->st;
	l->rec.totals = l->totals_bytes;
	l->t0_ns = now - (int64_t)l->tick * period_ns(l);
	pthread_mutex_lock(&h->mu);
	if (h->stop || find(h, l->id) != NULL) {
		pthread_mutex_unlock(&h->mu);
		goto fail;
	}
	l->next = h->list;
	h->list = l;
	h->nlive++;
	pthread_mutex_unlock(&h->mu);
	return true;
fail:
	live_free(l);
	return false;
}

void
match_live_finished(struct match_live *h, int64_t id, bool committed, const char *last_frame,
    size_t len)
{
	struct live **p, *l = NULL;
	int viewer;

	pthread_mutex_lock(&h->mu);
	for (p = &h->list; *p != NULL; p = &(*p)->next)
		if ((*p)->id == id) {
			l = *p;
			break;
		}
	if (l != NULL && !committed) {
		/* Tried again in a second. */
		l->ending = false;
		l->end_at_ns = mono_ns() + 1000000000;
		h->failures++;
		l = NULL;
	} else if (l != NULL) {
		*p = l->next;
		h->nlive--;
		answer_acks(l, SIZE_MAX, STORE_JOB_COMMITTED);
		for (viewer = -1; viewer < MATCH_PLAYERS_MAX; viewer++)
			match_hub_notify(h->hub, stream_key(id, viewer), last_frame, last_frame ? len : 0,
			    true);
	}
	pthread_mutex_unlock(&h->mu);
	live_free(l);
}

bool
match_live_has(struct match_live *h, int64_t id)
{
	bool has;

	pthread_mutex_lock(&h->mu);
	has = find(h, id) != NULL;
	pthread_mutex_unlock(&h->mu);
	return has;
}

enum match_live_keys
match_live_keys(struct match_live *h, int64_t id, int64_t account_id, const char *text, size_t len,
    struct request *req, request_cont cont, struct match_live_ack *ack)
{
	struct match_input in[MATCH_LIVE_KEYS_MAX];
	struct match_standing s;
	enum match_live_keys ret;
	struct ack *a = calloc(1, sizeof *a);
	struct live *l;
	size_t n, k;
	int seat = -1, i;

	pthread_mutex_lock(&h->mu);
	if (h->stop) {
		ret = MATCH_LIVE_SHUTTING_DOWN;
		goto done;
	}
	if ((l = find(h, id)) == NULL) {
		ret = MATCH_LIVE_NOT_LIVE;
		goto done;
	}
	for (i = 0; i < l->row->nseats; i++)
		if (l->row->seats[i].account_id == account_id)
			seat = i;
	ack->seat = seat;
	if (seat < 0) {
		ret = MATCH_LIVE_NOT_A_PLAYER;
		goto done;
	}
	l->mr->standing(l->st, &s);
	if (l->over) {
		ret = MATCH_LIVE_OVER;
		goto done;
	}
	if (!(s.alive >> seat & 1u) || l->disconnected[seat]) {
		ret = MATCH_LIVE_OUT;
		goto done;
	}
	if ((n = l->mt->keys_read(text, len, in, MATCH_LIVE_KEYS_MAX, ack->reason,
	    sizeof ack->reason)) == 0) {
		ret = MATCH_LIVE_BAD_KEYS;
		goto done;
	}
	if (l->queued[seat] + n > MATCH_LIVE_TICK_INPUTS) {
		ret = MATCH_LIVE_TOO_MANY;
		goto done;
	}
	if (a == NULL || !grow(&l->queue, &l->capqueue, l->nqueue + n)) {
		ret = MATCH_LIVE_SHUTTING_DOWN; /* out of memory: answered as an outage */
		goto done;
	}
	for (k = 0; k < n; k++) {
		in[k].seat = (uint8_t)seat;
		l->queue[l->nqueue++] = in[k];
	}
	l->queued[seat] += (unsigned)n;
	ack->tick = l->tick;
	ack->nkeys = n;
	a->req = req;
	a->out = ack;
	a->seq_end = l->nrecorded + l->nqueue;
	a->next = l->acks;
	l->acks = a;
	a = NULL;
	request_suspend(req, cont);
	ret = MATCH_LIVE_QUEUED;
done:
	pthread_mutex_unlock(&h->mu);
	free(a);
	return ret;
}

/* Under the mutex: whether match id has room for one more stream. */
static bool
stream_room(struct match_live *h, int64_t id)
{
	unsigned n = 0;
	int viewer;

	for (viewer = -1; viewer < MATCH_PLAYERS_MAX; viewer++)
		n += match_hub_streams(h->hub, stream_key(id, viewer));
	return n < MATCH_LIVE_STREAMS;
}

static enum match_live_stream
open_stream(struct match_live *h, int64_t id, int viewer, struct request *req, const char *first,
    size_t len, bool last)
{
	switch (match_hub_stream(h->hub, req, stream_key(id, viewer), first, len, last)) {
	case MATCH_HUB_STREAMING: return MATCH_LIVE_STREAMING;
	case MATCH_HUB_FULL: return MATCH_LIVE_FULL;
	default: return MATCH_LIVE_FAILED;
	}
}

enum match_live_stream
match_live_stream(struct match_live *h, int64_t id, int viewer, struct request *req)
{
	enum match_live_stream ret = MATCH_LIVE_NOT_HERE;
	struct live *l;
	char *text = NULL;
	size_t len = 0;

	pthread_mutex_lock(&h->mu);
	if ((l = find(h, id)) != NULL) {
		if (!stream_room(h, id))
			ret = MATCH_LIVE_FULL;
		else if ((text = match_live_event_text(l->mr, &l->rec, viewer, l->tick, phase_of(l), NULL,
		    &len)) == NULL)
			ret = MATCH_LIVE_FAILED;
		else
			ret = open_stream(h, id, viewer, req, text, len, false);
		if (ret == MATCH_LIVE_STREAMING && viewer >= 0 && viewer < MATCH_PLAYERS_MAX)
			l->closed_since[viewer] = NO_TICK;
	}
	pthread_mutex_unlock(&h->mu);
	free(text);
	return ret;
}

enum match_live_stream
match_live_stream_waiting(struct match_live *h, int64_t id, int viewer, struct request *req,
    const char *first, size_t len, bool last)
{
	enum match_live_stream ret;

	pthread_mutex_lock(&h->mu);
	if (find(h, id) != NULL)
		ret = MATCH_LIVE_NOT_HERE; /* it has started meanwhile: ask again */
	else if (!last && !stream_room(h, id))
		ret = MATCH_LIVE_FULL;
	else
		ret = open_stream(h, id, viewer, req, first, len, last);
	pthread_mutex_unlock(&h->mu);
	return ret;
}

bool
match_live_snapshot(struct match_live *h, int64_t id, void *st, size_t cap,
    uint8_t totals[MATCH_TOTALS_SIZE])
{
	struct live *l;
	bool found = false;

	pthread_mutex_lock(&h->mu);
	if ((l = find(h, id)) != NULL && cap >= l->mr->state_size) {
		memcpy(st, l->st, l->mr->state_size);
		match_totals_encode(&l->totals, totals);
		found = true;
	}
	pthread_mutex_unlock(&h->mu);
	return found;
}

void
match_live_stats(struct match_live *h, struct match_live_stats *out)
{
	pthread_mutex_lock(&h->mu);
	out->matches = h->nlive;
	out->ticks = h->ticks;
	out->late_ticks = h->late_ticks;
	memcpy(out->lateness_us, h->lateness, sizeof out->lateness_us);
	out->inputs = h->inputs;
	out->disconnects = h->disconnects;
	out->flushes = h->flushes;
	out->flush_failures = h->failures;
	pthread_mutex_unlock(&h->mu);
}
