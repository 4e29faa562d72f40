/*
 * stopper.c: a background thread that stops on request (stopper.h).
 */
#include "stopper.h"

#include <time.h>

bool
stopper_start(struct stopper *s, void *(*run)(void *), void *arg)
{
	pthread_condattr_t ca;
	bool cv = false;

	s->stopping = false;
	if (pthread_condattr_init(&ca) != 0)
		return false;
	if (pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 && pthread_cond_init(&s->cv, &ca) == 0)
		cv = true;
	pthread_condattr_destroy(&ca);
	if (!cv)
		return false;
	if (pthread_mutex_init(&s->mu, NULL) != 0) {
		pthread_cond_destroy(&s->cv);
		return false;
	}
	if (pthread_create(&s->thread, NULL, run, arg) != 0) {
		pthread_mutex_destroy(&s->mu);
		pthread_cond_destroy(&s->cv);
		return false;
	}
	return true;
}

void
stopper_stop(struct stopper *s)
{
	pthread_mutex_lock(&s->mu);
	s->stopping = true;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	pthread_join(s->thread, NULL);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
}

int64_t
stopper_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void
stopper_wait_until(struct stopper *s, int64_t deadline_ns)
{
	struct timespec until;

	until.tv_sec = (time_t)(deadline_ns / 1000000000);
	until.tv_nsec = (long)(deadline_ns % 1000000000);
	pthread_cond_timedwait(&s->cv, &s->mu, &until);
}
