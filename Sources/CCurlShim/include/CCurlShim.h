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
int ccurl_seekfunc_fail(void);
int ccurl_seekfunc_cantseek(void);

/* Pausing a transfer: the write callback's pause value, and curl_easy_pause(CURLPAUSE_CONT). */
size_t ccurl_writefunc_pause(void);
CURLcode ccurl_easy_unpause(CURL *handle);

/* A flag that any thread may raise and the loop thread reads in every callback, without a
 * lock: an atomic int (release on store, acquire on load). */
void ccurl_flag_raise(int *flag);
int ccurl_flag_is_raised(const int *flag);

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
CURLcode ccurl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value);
CURLcode ccurl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value);

/* curl_multi_setopt and curl_share_setopt. */
CURLMcode ccurl_multi_setopt_long(CURLM *handle, CURLMoption option, long value);
CURLMcode ccurl_multi_setopt_pointer(CURLM *handle, CURLMoption option, void *value);
CURLSHcode ccurl_share_setopt_long(CURLSH *handle, CURLSHoption option, long value);

#endif
