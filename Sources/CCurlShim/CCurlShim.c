#include "CCurlShim.h"

const char *ccurl_version(void) { return curl_version(); }
CURLcode ccurl_global_init_all(void) { return curl_global_init(CURL_GLOBAL_ALL); }
size_t ccurl_error_size(void) { return CURL_ERROR_SIZE; }

size_t ccurl_readfunc_abort(void) { return CURL_READFUNC_ABORT; }
int ccurl_seekfunc_ok(void) { return CURL_SEEKFUNC_OK; }
int ccurl_seekfunc_cantseek(void) { return CURL_SEEKFUNC_CANTSEEK; }
size_t ccurl_writefunc_pause(void) { return CURL_WRITEFUNC_PAUSE; }
CURLcode ccurl_easy_unpause(CURL *handle) { return curl_easy_pause(handle, CURLPAUSE_CONT); }

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_read_function(CURL *handle, curl_read_callback value) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, value);
}
CURLcode ccurl_easy_setopt_seek_function(CURL *handle, curl_seek_callback value) {
    return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, value);
}
CURLcode ccurl_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLMcode ccurl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}
CURLSHcode ccurl_share_setopt_long(CURLSH *handle, CURLSHoption option, long value) {
    return curl_share_setopt(handle, option, value);
}

/* ---- The loop's reactor (see CCurlShim.h). ---- */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#else
#include <poll.h>
#endif

static int64_t ccurl_monotonic_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* How many closed sockets a window remembers one by one; past that, a wait's whole answer is
 * treated as stale. */
#define CCURL_REMOVED_CAPACITY 32

struct ccurl_reactor {
    /* Sockets libcurl stopped watching since the last ccurl_reactor_mark; removed_count is
     * CCURL_REMOVED_CAPACITY + 1 once more were removed than the array holds. */
    curl_socket_t removed[CCURL_REMOVED_CAPACITY];
    int removed_count;
#ifdef __linux__
    int epoll;
    int wake; /* an eventfd */
#else
    int wake[2]; /* a pipe: read end, write end */
    struct pollfd *watched; /* [0] is the pipe's read end */
    int count;
    int capacity;
#endif
};

static void ccurl_reactor_note_removed(ccurl_reactor *reactor, curl_socket_t socket) {
    if (reactor->removed_count < CCURL_REMOVED_CAPACITY) {
        reactor->removed[reactor->removed_count++] = socket;
    } else {
        reactor->removed_count = CCURL_REMOVED_CAPACITY + 1;
    }
}

void ccurl_reactor_mark(ccurl_reactor *reactor) { reactor->removed_count = 0; }

int ccurl_reactor_dispatch(ccurl_reactor *reactor, CURLM *multi, const curl_socket_t *sockets, const int *events,
                           int count) {
    int dispatched = 0;
    int running = 0;
    for (int i = 0; i < count; i++) {
        /* Checked before each call: a call may close a socket that a later entry names. */
        if (reactor->removed_count > CCURL_REMOVED_CAPACITY) break;
        int stale = 0;
        for (int j = 0; j < reactor->removed_count; j++) {
            if (reactor->removed[j] == sockets[i]) stale = 1;
        }
        if (stale) continue;
        curl_multi_socket_action(multi, sockets[i], events[i], &running);
        dispatched += 1;
    }
    return dispatched;
}

#ifdef __linux__
static int ccurl_socket_callback(CURL *easy, curl_socket_t socket, int what, void *data, void *socketp) {
    (void)easy;
    (void)socketp;
    ccurl_reactor *reactor = data;
    if (what == CURL_POLL_REMOVE) {
        ccurl_reactor_note_removed(reactor, socket);
        epoll_ctl(reactor->epoll, EPOLL_CTL_DEL, socket, NULL);
        return 0;
    }
    struct epoll_event event = {0};
    event.events = (what & CURL_POLL_IN ? EPOLLIN : 0) | (what & CURL_POLL_OUT ? EPOLLOUT : 0);
    event.data.fd = socket;
    if (epoll_ctl(reactor->epoll, EPOLL_CTL_MOD, socket, &event) != 0 && errno == ENOENT) {
        epoll_ctl(reactor->epoll, EPOLL_CTL_ADD, socket, &event);
    }
    return 0;
}
#else
static int ccurl_socket_callback(CURL *easy, curl_socket_t socket, int what, void *data, void *socketp) {
    (void)easy;
    (void)socketp;
    ccurl_reactor *reactor = data;
    int index = -1;
    for (int i = 1; i < reactor->count; i++) {
        if (reactor->watched[i].fd == socket) index = i;
    }
    if (what == CURL_POLL_REMOVE) {
        ccurl_reactor_note_removed(reactor, socket);
        if (index > 0) {
            reactor->watched[index] = reactor->watched[reactor->count - 1];
            reactor->count -= 1;
        }
        return 0;
    }
    if (index < 0) {
        if (reactor->count == reactor->capacity) {
            int capacity = reactor->capacity * 2;
            struct pollfd *grown = realloc(reactor->watched, sizeof(struct pollfd) * (size_t)capacity);
            if (!grown) return -1;
            reactor->watched = grown;
            reactor->capacity = capacity;
        }
        index = reactor->count++;
        reactor->watched[index].fd = socket;
    }
    reactor->watched[index].events = (short)((what & CURL_POLL_IN ? POLLIN : 0) | (what & CURL_POLL_OUT ? POLLOUT : 0));
    reactor->watched[index].revents = 0;
    return 0;
}
#endif

ccurl_reactor *ccurl_reactor_create(CURLM *multi) {
    ccurl_reactor *reactor = calloc(1, sizeof(ccurl_reactor));
    if (!reactor) return NULL;
#ifdef __linux__
    reactor->epoll = epoll_create1(EPOLL_CLOEXEC);
    reactor->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    struct epoll_event event = {0};
    event.events = EPOLLIN;
    event.data.fd = reactor->wake;
    if (reactor->epoll < 0 || reactor->wake < 0
        || epoll_ctl(reactor->epoll, EPOLL_CTL_ADD, reactor->wake, &event) != 0) {
        if (reactor->epoll >= 0) close(reactor->epoll);
        if (reactor->wake >= 0) close(reactor->wake);
        free(reactor);
        return NULL;
    }
#else
    reactor->capacity = 16;
    reactor->watched = calloc((size_t)reactor->capacity, sizeof(struct pollfd));
    if (!reactor->watched || pipe(reactor->wake) != 0) {
        free(reactor->watched);
        free(reactor);
        return NULL;
    }
    for (int i = 0; i < 2; i++) {
        fcntl(reactor->wake[i], F_SETFL, fcntl(reactor->wake[i], F_GETFL) | O_NONBLOCK);
        fcntl(reactor->wake[i], F_SETFD, FD_CLOEXEC);
    }
    reactor->watched[0].fd = reactor->wake[0];
    reactor->watched[0].events = POLLIN;
    reactor->count = 1;
#endif
    curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, ccurl_socket_callback);
    curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, reactor);
    return reactor;
}

void ccurl_reactor_free(ccurl_reactor *reactor) {
    if (!reactor) return;
#ifdef __linux__
    close(reactor->epoll);
    close(reactor->wake);
#else
    close(reactor->wake[0]);
    close(reactor->wake[1]);
    free(reactor->watched);
#endif
    free(reactor);
}

void ccurl_reactor_wake(ccurl_reactor *reactor) {
#ifdef __linux__
    uint64_t one = 1;
    while (write(reactor->wake, &one, sizeof one) < 0 && errno == EINTR) {}
#else
    char byte = 1;
    while (write(reactor->wake[1], &byte, 1) < 0 && errno == EINTR) {}
#endif
}

int ccurl_reactor_wait(ccurl_reactor *reactor, int timeout_ms, curl_socket_t *sockets, int *events, int max) {
    int ready = 0;
#ifdef __linux__
    struct epoll_event found[64];
    int limit = max < 64 ? max : 64;
    /* A signal is not a wake-up: wait again for what is left of the timeout. */
    int64_t deadline = timeout_ms < 0 ? -1 : ccurl_monotonic_ms() + timeout_ms;
    int count;
    while ((count = epoll_wait(reactor->epoll, found, limit, timeout_ms)) < 0 && errno == EINTR) {
        if (deadline >= 0) {
            int64_t left = deadline - ccurl_monotonic_ms();
            timeout_ms = left > 0 ? (int)left : 0;
        }
    }
    for (int i = 0; i < count; i++) {
        if (found[i].data.fd == reactor->wake) {
            uint64_t value;
            while (read(reactor->wake, &value, sizeof value) < 0 && errno == EINTR) {}
            continue;
        }
        uint32_t bits = found[i].events;
        sockets[ready] = found[i].data.fd;
        events[ready] = (bits & (EPOLLIN | EPOLLHUP) ? CURL_CSELECT_IN : 0) | (bits & EPOLLOUT ? CURL_CSELECT_OUT : 0)
            | (bits & EPOLLERR ? CURL_CSELECT_ERR : 0);
        ready += 1;
    }
#else
    /* Only this thread changes `watched` here (ccurl_reactor_allows_other_threads is 0). */
    int count = reactor->count;
    struct pollfd *copy = reactor->watched;
    int64_t deadline = timeout_ms < 0 ? -1 : ccurl_monotonic_ms() + timeout_ms;
    int result;
    while ((result = poll(copy, (nfds_t)count, timeout_ms)) < 0 && errno == EINTR) {
        if (deadline >= 0) {
            int64_t left = deadline - ccurl_monotonic_ms();
            timeout_ms = left > 0 ? (int)left : 0;
        }
    }
    if (result > 0) {
        if (copy[0].revents) {
            char drain[64];
            while (read(reactor->wake[0], drain, sizeof drain) > 0) {}
        }
        for (int i = 1; i < count && ready < max; i++) {
            short bits = copy[i].revents;
            if (!bits) continue;
            sockets[ready] = copy[i].fd;
            events[ready] = (bits & (POLLIN | POLLHUP) ? CURL_CSELECT_IN : 0) | (bits & POLLOUT ? CURL_CSELECT_OUT : 0)
                | (bits & (POLLERR | POLLNVAL) ? CURL_CSELECT_ERR : 0);
            ready += 1;
        }
    }
#endif
    return ready;
}

long ccurl_multi_timeout_ms(CURLM *multi) {
    long milliseconds = -1;
    if (curl_multi_timeout(multi, &milliseconds) != CURLM_OK) return -1;
    return milliseconds;
}

int ccurl_reactor_allows_other_threads(void) {
#ifdef __linux__
    return 1;
#else
    return 0;
#endif
}
