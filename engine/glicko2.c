/*
 * glicko2.c: the steps of Glickman's paper on the Glicko-2 scale
 * (mu = (r - 1500) / 173.7178, phi = RD / 173.7178).
 *
 * The volatility step solves f(x) = 0 for x = ln(sigma'^2), where
 *   f(x) = e^x (delta^2 - phi^2 - v - e^x) / (2 (phi^2 + v + e^x)^2)
 *          - (x - ln(sigma^2)) / tau^2,
 * by the Illinois algorithm from the paper's bracket [A, B]. f is
 * decreasing, so the bracket search and the iteration end; the loops carry
 * generous caps anyway so that no input can spin them (the paper's example
 * takes a handful of steps).
 */
#include "glicko2.h"

#include <math.h>

#define PI 3.14159265358979323846
#define BRACKET_STEPS_MAX 10000
#define ILLINOIS_STEPS_MAX 1000

static bool
valid(const struct glicko2_rating *r)
{
	return isfinite(r->rating) && isfinite(r->rd) && isfinite(r->volatility) && r->rd > 0 &&
	    r->volatility > 0;
}

/* The paper's g(phi): how much an opponent's uncertainty dampens a game. */
static double
g_of(double phi)
{
	return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (PI * PI));
}

struct vol {
	double delta2, phi2, v, a, tau2;
};

static double
f_of(const struct vol *s, double x)
{
	double ex = exp(x), d = s->phi2 + s->v + ex;

	return ex * (s->delta2 - s->phi2 - s->v - ex) / (2.0 * d * d) - (x - s->a) / s->tau2;
}

static double
new_volatility(double sigma, double phi, double v, double delta, double tau)
{
	struct vol s = { delta * delta, phi * phi, v, log(sigma * sigma), tau * tau };
	double A = s.a, B, C, fA, fB, fC;
	int k, steps;

	if (s.delta2 > s.phi2 + s.v) {
		B = log(s.delta2 - s.phi2 - s.v);
	} else {
		for (k = 1; k < BRACKET_STEPS_MAX && f_of(&s, s.a - k * tau) < 0; k++)
			;
		B = s.a - k * tau;
	}
	fA = f_of(&s, A);
	fB = f_of(&s, B);
	for (steps = 0; fabs(B - A) > GLICKO2_EPSILON && steps < ILLINOIS_STEPS_MAX; steps++) {
		C = A + (A - B) * fA / (fB - fA);
		fC = f_of(&s, C);
		if (fC * fB <= 0) {
			A = B;
			fA = fB;
		} else {
			fA /= 2;
		}
		B = C;
		fB = fC;
	}
	return exp(A / 2);
}

bool
glicko2_update(const struct glicko2_rating *player, const struct glicko2_game *games,
    size_t ngames, double tau, struct glicko2_rating *out)
{
	double mu, phi, sigma, v_inv = 0, sum = 0, gj, ej, muj, v, delta, phi_star, phi_new;
	size_t j;

	if (!valid(player) || !(tau > 0) || !isfinite(tau))
		return false;
	for (j = 0; j < ngames; j++)
		if (!valid(&games[j].opponent) || !(games[j].score >= 0 && games[j].score <= 1))
			return false;

	mu = (player->rating - GLICKO2_RATING_DEFAULT) / GLICKO2_SCALE;
	phi = player->rd / GLICKO2_SCALE;
	sigma = player->volatility;
	if (ngames == 0) {
		out->rd = sqrt(phi * phi + sigma * sigma) * GLICKO2_SCALE;
		out->rating = player->rating;
		out->volatility = sigma;
		return true;
	}
	for (j = 0; j < ngames; j++) {
		muj = (games[j].opponent.rating - GLICKO2_RATING_DEFAULT) / GLICKO2_SCALE;
		gj = g_of(games[j].opponent.rd / GLICKO2_SCALE);
		ej = 1.0 / (1.0 + exp(-gj * (mu - muj)));
		v_inv += gj * gj * ej * (1 - ej);
		sum += gj * (games[j].score - ej);
	}
	v = 1.0 / v_inv;
	delta = v * sum;
	sigma = new_volatility(sigma, phi, v, delta, tau);
	phi_star = sqrt(phi * phi + sigma * sigma);
	phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
	mu += phi_new * phi_new * sum;
	out->rating = mu * GLICKO2_SCALE + GLICKO2_RATING_DEFAULT;
	out->rd = phi_new * GLICKO2_SCALE;
	out->volatility = sigma;
	return true;
}

bool
glicko2_match(const struct glicko2_rating *before, const uint8_t *places, size_t n,
    double tau, struct glicko2_rating *after)
{
	struct glicko2_game games[GLICKO2_MATCH_MAX - 1];
	struct glicko2_rating res[GLICKO2_MATCH_MAX];
	size_t i, j, k;

	if (n < 2 || n > GLICKO2_MATCH_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (places[i] == 0 || places[i] > n)
			return false;
	for (i = 0; i < n; i++) {
		for (j = 0, k = 0; j < n; j++) {
			if (j == i)
				continue;
			games[k].opponent = before[j];
			games[k].score = places[i] < places[j] ? 1.0 : places[i] == places[j] ? 0.5 : 0.0;
			k++;
		}
		if (!glicko2_update(&before[i], games, k, tau, &res[i]))
			return false;
	}
	for (i = 0; i < n; i++)
		after[i] = res[i];
	return true;
}
