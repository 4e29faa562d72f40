/*
 * notify.h: telling the service manager how the daemon is doing, by
 * systemd's notification protocol (sd_notify(3)) without libsystemd.
 *
 * The protocol: the manager names an AF_UNIX datagram socket in
 * $NOTIFY_SOCKET (a path, or an abstract name written with a leading '@');
 * each message is one datagram of newline-separated VAR=value lines. Without
 * $NOTIFY_SOCKET (a plain run, a test) every call here does nothing and
 * succeeds, so the daemon calls them unconditionally.
 *
 * All functions may be called from any thread; none blocks (a datagram the
 * manager has no room for is dropped and reported, never waited for).
 */
#ifndef SERVER_NOTIFY_H
#define SERVER_NOTIFY_H

/* Sends msg (e.g. "READY=1\nSTATUS=serving") as one datagram. Returns 1
 * when sent, 0 when there is no $NOTIFY_SOCKET, -1 on failure (a socket
 * name that is neither a path nor '@name', or a send error; errno says
 * which). msg is borrowed. */
int notify_send(const char *msg);

/* READY=1 with a STATUS line naming where the daemon serves (borrowed):
 * call it once the listener accepts and requests are answered. A failure
 * is logged as a warning and returned as notify_send's -1. */
int notify_ready(const char *where);

/* STOPPING=1 with a STATUS line: call it as shutdown begins, before the
 * drain, so that the manager knows the exit that follows is meant. */
int notify_stopping(void);

/* Starts a thread that sends WATCHDOG=1 at once and then every half of
 * $WATCHDOG_USEC, when the manager asks for it: $WATCHDOG_USEC is a positive
 * number of microseconds and $WATCHDOG_PID, if set, is this process.
 * Returns 1 when started, 0 when not asked (or already running), -1 when
 * the thread cannot start (logged). Start it after the signal mask is set:
 * the thread inherits it. */
int notify_watchdog_start(void);

/* Stops and joins the watchdog thread, if any; safe to call when none
 * runs. Call it last in shutdown, since the manager's watchdog keeps
 * counting until the process is gone. */
void notify_watchdog_stop(void);

#endif
