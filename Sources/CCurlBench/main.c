// courier-curl-bench: the plain-C baseline for Courier's benchmarks.
//
// It drives libcurl's multi interface directly, with no Swift in the way, so that the
// Swift transports can be compared against what libcurl itself can do on this machine.
//
//   courier-curl-bench URL REQUESTS CONCURRENCY
//
// It keeps CONCURRENCY transfers in flight until REQUESTS have completed, reusing
// connections, and prints one JSON line: requests, errors, seconds, rps, p50_ms, p99_ms, bytes,
// and user_s and sys_s, the process's CPU time while the requests ran.
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

typedef struct {
    CURL *easy;
    double started;
    size_t bytes;
} Slot;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t on_body(char *data, size_t size, size_t count, void *context) {
    Slot *slot = (Slot *)context;
    (void)data;
    slot->bytes += size * count;
    return size * count;
}

static void cpu_seconds(double *user, double *sys) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    *user = (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6;
    *sys = (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec / 1e6;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void start(CURLM *multi, Slot *slot, const char *url) {
    curl_easy_setopt(slot->easy, CURLOPT_URL, url);
    curl_easy_setopt(slot->easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(slot->easy, CURLOPT_WRITEDATA, slot);
    curl_easy_setopt(slot->easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(slot->easy, CURLOPT_PRIVATE, slot);
    slot->started = now_seconds();
    curl_multi_add_handle(multi, slot->easy);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s URL REQUESTS CONCURRENCY\n", argv[0]);
        return 64;
    }
    const char *url = argv[1];
    long total = strtol(argv[2], NULL, 10);
    long concurrency = strtol(argv[3], NULL, 10);
    if (total <= 0 || concurrency <= 0) {
        fprintf(stderr, "REQUESTS and CONCURRENCY must be positive\n");
        return 64;
    }
    if (concurrency > total) concurrency = total;

    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, concurrency);
    Slot *slots = calloc((size_t)concurrency, sizeof(Slot));
    double *latencies = calloc((size_t)total, sizeof(double));
    if (slots == NULL || latencies == NULL) return 70;

    long started = 0, finished = 0, errors = 0;
    size_t bytes = 0;
    double user_before, sys_before;
    cpu_seconds(&user_before, &sys_before);
    double begin = now_seconds();
    for (long i = 0; i < concurrency; i++) {
        slots[i].easy = curl_easy_init();
        start(multi, &slots[i], url);
        started++;
    }
    while (finished < total) {
        int running = 0;
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        int left;
        while ((message = curl_multi_info_read(multi, &left)) != NULL) {
            if (message->msg != CURLMSG_DONE) continue;
            Slot *slot;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&slot);
            long status = 0;
            curl_easy_getinfo(message->easy_handle, CURLINFO_RESPONSE_CODE, &status);
            if (message->data.result != CURLE_OK || status != 200) errors++;
            latencies[finished++] = now_seconds() - slot->started;
            bytes += slot->bytes;
            slot->bytes = 0;
            curl_multi_remove_handle(multi, slot->easy);
            if (started < total) {
                start(multi, slot, url);
                started++;
            }
        }
        if (finished < total) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    double seconds = now_seconds() - begin;
    double user_after, sys_after;
    cpu_seconds(&user_after, &sys_after);
    qsort(latencies, (size_t)total, sizeof(double), compare_doubles);
    printf("{\"requests\":%ld,\"errors\":%ld,\"seconds\":%.6f,\"rps\":%.1f,\"p50_ms\":%.3f,\"p99_ms\":%.3f,\"bytes\":%zu,"
           "\"user_s\":%.6f,\"sys_s\":%.6f}\n",
           total, errors, seconds, (double)total / seconds, latencies[total / 2] * 1000.0,
           latencies[(long)((double)total * 0.99) < total ? (long)((double)total * 0.99) : total - 1] * 1000.0,
           bytes, user_after - user_before, sys_after - sys_before);
    for (long i = 0; i < concurrency; i++) curl_easy_cleanup(slots[i].easy);
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    free(slots);
    free(latencies);
    return errors == 0 ? 0 : 1;
}
