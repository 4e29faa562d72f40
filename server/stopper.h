/*
 * stopper.h: a background thread that sleeps on a condition and stops on
 * request -- the mutex, the condition variable (its timed waits on
 * CLOCK_MONOTONIC, so that a change of the wall clock moves no deadline),
 * the thread and its stop flag, started and stopped the one way.
 *
 * The thread's function takes s->mu, loops until s->stopping, does its
 * work with the mutex let go, and sleeps with stopper_wait_until; whoever
 * wakes it early signals s->cv under s->mu.
 */
#ifndef SERVER_STOPPER_H
#define SERVER_STOPPER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct stopper {
	pthread_mutex_t mu;
	pthread_cond_t  cv;
	pthread_t       thread;
	bool            stopping;
};

/* Starts run(arg) on a new thread with s ready; false (nothing left to
 * free) when a part cannot be made. */
bool stopper_start(struct stopper *s, void *(*run)(void *), void *arg);

/* Sets the stop flag, wakes the thread, waits for it to return and frees
 * what stopper_start made. */
void stopper_stop(struct stopper *s);

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t stopper_now_ns(void);

/* Under s->mu: sleeps until deadline_ns (stopper_now_ns's clock), a
 * signal of s->cv or a spurious wake-up, whichever comes first. */
void stopper_wait_until(struct stopper *s, int64_t deadline_ns);

#endif
