/*
 * notify.c: sd_notify's datagrams, written out (see notify.h).
 *
 * Each message opens its own non-blocking datagram socket, sends once and
 * closes it: messages are rare (READY and STOPPING once per run, a
 * watchdog ping every few seconds), so a socket kept open would buy
 * nothing and would need a lock. The manager learns the sender's pid from
 * the kernel (SO_PASSCRED on its side), which is this process's for every
 * thread, as NotifyAccess=main requires.
 *
 * The watchdog thread is the only mutable state here: started once after
 * READY=1, stopped once at the end of shutdown, guarded by wd_mu.
 */
#include "notify.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

/* Builds the socket address from $NOTIFY_SOCKET's value: a path, or an
 * abstract name (leading '@', sent with a leading NUL). */
static int
socket_address(const char *name, struct sockaddr_un *sun, socklen_t *len)
{
	size_t n = strlen(name);

	memset(sun, 0, sizeof *sun);
	sun->sun_family = AF_UNIX;
	if ((name[0] != '/' && name[0] != '@') || n < 2 || n >= sizeof sun->sun_path) {
		errno = EINVAL;
		return -1;
	}
	memcpy(sun->sun_path, name, n);
	if (name[0] == '@') {
		/* The abstract name is exactly the bytes after the NUL. */
		sun->sun_path[0] = '\0';
		*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
	} else
		*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 1);
	return 0;
}

int
notify_send(const char *msg)
{
	const char *name = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sun;
	socklen_t len;
	int fd = -1, ret = -1, saved;
	ssize_t n;

	if (name == NULL || name[0] == '\0')
		return 0;
	if (socket_address(name, &sun, &len) != 0)
		goto done;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		goto done;
	n = sendto(fd, msg, strlen(msg), MSG_NOSIGNAL, (const struct sockaddr *)&sun, len);
	if (n < 0)
		goto done;
	ret = 1;
done:
	saved = errno;
	if (fd >= 0)
		close(fd);
	errno = saved;
	return ret;
}

int
notify_ready(const char *where)
{
	char msg[512];
	int rc;

	snprintf(msg, sizeof msg, "READY=1\nSTATUS=serving on %s", where);
	rc = notify_send(msg);
	if (rc < 0)
		log_msg(LOG_WARN, "cannot tell the service manager we are ready: %s", strerror(errno));
	return rc;
}

int
notify_stopping(void)
{
	int rc = notify_send("STOPPING=1\nSTATUS=shutting down: finishing requests in flight");

	if (rc < 0)
		log_msg(LOG_WARN, "cannot tell the service manager we are stopping: %s", strerror(errno));
	return rc;
}

static pthread_mutex_t wd_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t  wd_cv;
static pthread_t       wd_thread;
static bool            wd_running;   /* the thread exists and has not been joined */
static bool            wd_stop;      /* asks the thread to return */
static uint64_t        wd_period_us; /* between two pings: half of WATCHDOG_USEC */

/* Whether the manager asks this process for pings, and how often. */
static bool
watchdog_period(uint64_t *period_us)
{
	const char *usec = getenv("WATCHDOG_USEC"), *pid = getenv("WATCHDOG_PID");
	unsigned long long v;
	char *end;

	/* strtoull would take "-1" for a huge number: digits only. */
	if (usec == NULL || usec[0] < '0' || usec[0] > '9')
		return false;
	errno = 0;
	v = strtoull(usec, &end, 10);
	if (errno != 0 || *end != '\0' || v == 0)
		return false;
	if (pid != NULL && pid[0] != '\0') {
		unsigned long long p;

		if (pid[0] < '0' || pid[0] > '9')
			return false;
		errno = 0;
		p = strtoull(pid, &end, 10);
		if (errno != 0 || *end != '\0' || p != (unsigned long long)getpid())
			return false;
	}
	*period_us = v / 2 > 0 ? v / 2 : 1;
	return true;
}

static void *
watchdog_main(void *arg)
{
	struct timespec next;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &next);
	pthread_mutex_lock(&wd_mu);
	while (!wd_stop) {
		pthread_mutex_unlock(&wd_mu);
		if (notify_send("WATCHDOG=1") < 0)
			log_msg(LOG_WARN, "watchdog ping failed: %s", strerror(errno));
		pthread_mutex_lock(&wd_mu);
		/* Pings keep their rhythm from the first one, however long a
		 * send took. */
		next.tv_sec += (time_t)(wd_period_us / 1000000);
		next.tv_nsec += (long)(wd_period_us % 1000000) * 1000;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000L;
		}
		while (!wd_stop && pthread_cond_timedwait(&wd_cv, &wd_mu, &next) != ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&wd_mu);
	return NULL;
}

int
notify_watchdog_start(void)
{
	pthread_condattr_t ca;
	uint64_t period;
	int ret = 0, rc;

	if (!watchdog_period(&period))
		return 0;
	pthread_mutex_lock(&wd_mu);
	if (wd_running)
		goto done;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&wd_cv, &ca);
	pthread_condattr_destroy(&ca);
	wd_period_us = period;
	wd_stop = false;
	rc = pthread_create(&wd_thread, NULL, watchdog_main, NULL);
	if (rc != 0) {
		pthread_cond_destroy(&wd_cv);
		log_msg(LOG_WARN, "cannot start the watchdog thread: %s", strerror(rc));
		ret = -1;
		goto done;
	}
	wd_running = true;
	ret = 1;
	log_msg(LOG_INFO, "watchdog: a ping every %llu ms", (unsigned long long)(period / 1000));
done:
	pthread_mutex_unlock(&wd_mu);
	return ret;
}

void
notify_watchdog_stop(void)
{
	bool running;

	pthread_mutex_lock(&wd_mu);
	running = wd_running;
	wd_stop = true;
	if (running)
		pthread_cond_signal(&wd_cv);
	pthread_mutex_unlock(&wd_mu);
	if (!running)
		return;
	/* Only main() starts and stops the thread, so nobody else joins it. */
	pthread_join(wd_thread, NULL);
	pthread_mutex_lock(&wd_mu);
	wd_running = false;
	pthread_cond_destroy(&wd_cv);
	pthread_mutex_unlock(&wd_mu);
}
