#ifndef COURIER_CCURLSHIM_H
#define COURIER_CCURLSHIM_H
#include <curl/curl.h>
/// Returns libcurl's version string. Placeholder until the libcurl transport lands.
const char *ccurl_version(void);
#endif
