#ifndef COURIER_CCURLSHIM_H
#define COURIER_CCURLSHIM_H
#include <curl/curl.h>

/* Non-variadic wrappers around libcurl's variadic functions, which Swift cannot call.
 * Each wrapper passes its argument with the exact C type libcurl expects for that
 * option family (long, curl_off_t, pointer, string, function pointer). */

/** Returns libcurl's version string. */
const char *ccurl_version(void);
/** Calls curl_global_init(CURL_GLOBAL_ALL). Safe to call more than once. */
CURLcode ccurl_global_init_all(void);
/** libcurl's CURL_ERROR_SIZE: the size of the CURLOPT_ERRORBUFFER buffer. */
size_t ccurl_error_size(void);

/* Return values for callbacks (macros in curl.h that are not all importable). */
size_t ccurl_readfunc_abort(void);
int ccurl_seekfunc_ok(void);
int ccurl_seekfunc_cantseek(void);

/* Pausing a transfer: the write callback's pause value, and curl_easy_pause(CURLPAUSE_CONT). */
size_t ccurl_writefunc_pause(void);
CURLcode ccurl_easy_unpause(CURL *handle);

/* curl_easy_setopt by argument type. */
CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
/* Function-pointer options: WRITEFUNCTION and HEADERFUNCTION share the write signature. */
CURLcode ccurl_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value);
CURLcode ccurl_easy_setopt_read_function(CURL *handle, curl_read_callback value);
CURLcode ccurl_easy_setopt_seek_function(CURL *handle, curl_seek_callback value);
CURLcode ccurl_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback value);

/* curl_easy_getinfo by result type. */
CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);

/* curl_multi_setopt and curl_share_setopt. */
CURLMcode ccurl_multi_setopt_long(CURLM *handle, CURLMoption option, long value);
CURLSHcode ccurl_share_setopt_long(CURLSH *handle, CURLSHoption option, long value);

/* The loop's reactor: the sockets libcurl asks to watch (CURLMOPT_SOCKETFUNCTION) and a
 * wake-up descriptor, waited on outside
 * libcurl so that another thread may drive the multi handle (under the loop's lock) while the
 * loop thread sleeps. epoll on Linux, poll(2) elsewhere (where only the loop thread may drive
 * the multi handle: see ccurl_reactor_allows_other_threads). Every function but
 * ccurl_reactor_wake and ccurl_reactor_wait must be called with the loop's lock held; wait is
 * called without it, by the loop thread only. */
typedef struct ccurl_reactor ccurl_reactor;
/** Creates a reactor and installs its callbacks on `multi`; NULL when the OS refuses. */
ccurl_reactor *ccurl_reactor_create(CURLM *multi);
/** Frees the reactor; call after curl_multi_cleanup (which may still report sockets). */
void ccurl_reactor_free(ccurl_reactor *reactor);
/** Makes a wait in progress (or the next one) return at once. Any thread, no lock. */
void ccurl_reactor_wake(ccurl_reactor *reactor);
/** Waits up to `timeout_ms` (-1: no limit) for the watched sockets or a wake-up. Fills at most
 * `max` ready sockets with libcurl's CURL_CSELECT_* bits; returns how many (0 on a timeout or
 * a wake-up alone). */
int ccurl_reactor_wait(ccurl_reactor *reactor, int timeout_ms, curl_socket_t *sockets, int *events, int max);
/** Starts a new window for ccurl_reactor_dispatch: sockets libcurl stops watching from now on
 * are remembered until the next mark. Call (with the lock) just before releasing it to wait. */
void ccurl_reactor_mark(ccurl_reactor *reactor);
/** Runs curl_multi_socket_action for each ready socket a wait found, except those libcurl
 * stopped watching since the last mark: such a socket was closed after the wait looked at it
 * (by a caller driving the multi handle meanwhile, or earlier in this turn), and its number may
 * already belong to a new connection, which must not get the old socket's readiness (an error
 * bit fails a transfer). Skipping one loses nothing: epoll and poll(2) report readiness by
 * level, so the next wait finds a still-ready socket again. Returns how many were run. */
int ccurl_reactor_dispatch(ccurl_reactor *reactor, CURLM *multi, const curl_socket_t *sockets, const int *events,
                           int count);
/** curl_multi_timeout: milliseconds until libcurl wants curl_multi_socket_action(CURL_SOCKET_TIMEOUT)
 * (0: now), or -1 for no timeout. Asked afresh rather than kept from CURLMOPT_TIMERFUNCTION:
 * libcurl 7.88 does not call the timer function when curl_multi_remove_handle leaves it with no
 * timeout, so a kept "due now" would stay due and the loop would spin. */
long ccurl_multi_timeout_ms(CURLM *multi);
/** 1 when another thread may drive the multi handle while the loop thread waits (epoll sees
 * the sockets it adds at once); 0 where the wait polls a set that only the loop thread may
 * change (poll(2)). */
int ccurl_reactor_allows_other_threads(void);

#endif
