#ifndef COURIER_CCURL_SHIM_H
#define COURIER_CCURL_SHIM_H
#include <curl/curl.h>
#endif
