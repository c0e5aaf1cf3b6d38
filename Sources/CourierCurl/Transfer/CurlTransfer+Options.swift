import CCurlShim
import Courier
import Foundation

extension CurlTransfer {
    /// Applies `plan` to the easy handle. A handle with libcurl's defaults (new, or reset) first
    /// gets the options that are the same for every request of the transport
    /// (`configureConstants`); a pooled one still has them.
    /// Every callback gets the handle's context as its user pointer, set once per handle, and
    /// finds this transfer there, unretained: the loop holds a strong reference from
    /// `curl_multi_add_handle` until after `curl_multi_remove_handle`, and libcurl calls back only
    /// in between. Options that most requests share (timeouts, the header list) are set only
    /// when they differ from what the handle has.
    /// - Throws: `CourierError.Code.invalidConfiguration` when libcurl refuses an option.
    func configure(handleHasDefaults: Bool) throws {
        let context = handle.context
        if handleHasDefaults { try configureConstants() }
        context.pointee.transfer = Unmanaged.passUnretained(self).toOpaque()
        context.pointee.errorBuffer[0] = 0
        if context.pointee.contentDecodingOff {
            // Turned off by the last transfer's head (`ContentDecoding`).
            try set(CURLOPT_HTTP_CONTENT_DECODING, 1)
            context.pointee.contentDecodingOff = false
        }
        try set(CURLOPT_URL, plan.url)
        if plan.freshConnection { try set(CURLOPT_FRESH_CONNECT, 1) }

        switch plan.method {
        case .get: break  // the default, and what `resetRequestOptions` leaves
        case .head: try set(CURLOPT_NOBODY, 1)
        case .post: try set(CURLOPT_POST, 1)
        case .custom(let name):
            if plan.upload != .none { try set(CURLOPT_POST, 1) }
            try set(CURLOPT_CUSTOMREQUEST, name)
        }
        switch plan.upload {
        case .none: break
        case .sized(let length): try set(CURLOPT_POSTFIELDSIZE_LARGE, offT: length)
        case .chunked: try set(CURLOPT_POSTFIELDSIZE_LARGE, offT: -1)
        }
        if plan.bigUpload { try set(CURLOPT_UPLOAD_BUFFERSIZE, Self.bigBufferSize) }

        // The request's own lines, then the transport's (`offersEncodings`), which are shared.
        var own: (first: UnsafeMutablePointer<curl_slist>, last: UnsafeMutablePointer<curl_slist>)?
        for line in plan.headerLines {
            guard let appended = curl_slist_append(own?.last, line) else {
                if let own { curl_slist_free_all(own.first) }
                throw CourierError(
                    .invalidConfiguration, "libcurl could not copy a header", request: request)
            }
            own = (own?.first ?? appended, own == nil ? appended : appended.pointee.next ?? appended)
        }
        // A request that may go through a proxy sends the transport's User-Agent as an option,
        // which the proxy's CONNECT carries too; a direct one as a shared line.
        let agentAsOption = !(plan.isDirect && handles.userAgent != nil)
        if agentAsOption != context.pointee.userAgentIsOption {
            let code =
                agentAsOption
                ? plan.userAgent.withCString { ccurl_easy_setopt_string(easy, CURLOPT_USERAGENT, $0) }
                : ccurl_easy_setopt_string(easy, CURLOPT_USERAGENT, nil)
            try check(code, "USERAGENT")
            context.pointee.userAgentIsOption = agentAsOption
        }
        let shared = handles.sharedHeaders(
            acceptEncoding: plan.offersEncodings, userAgent: !agentAsOption && plan.offersUserAgent)
        own?.last.pointee.next = shared
        let list = own?.first ?? shared
        if list != context.pointee.headerList {
            let code = ccurl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list)
            if code != CURLE_OK, let own {
                own.last.pointee.next = nil
                curl_slist_free_all(own.first)
            }
            try check(code, "HTTPHEADER")
            context.pointee.headerList = list
        }
        // The last transfer's lines are no longer the handle's.
        context.pointee.freeOwnedHeaderList()
        context.pointee.ownedHeaderList = own

        if plan.connectTimeoutMilliseconds != context.pointee.connectTimeoutMilliseconds {
            try set(CURLOPT_CONNECTTIMEOUT_MS, plan.connectTimeoutMilliseconds)
            context.pointee.connectTimeoutMilliseconds = plan.connectTimeoutMilliseconds
        }
        if plan.totalTimeoutMilliseconds != context.pointee.totalTimeoutMilliseconds {
            try set(CURLOPT_TIMEOUT_MS, plan.totalTimeoutMilliseconds)
            context.pointee.totalTimeoutMilliseconds = plan.totalTimeoutMilliseconds
        }
        if plan.bigDownload(streamed: stream != nil) { try set(CURLOPT_BUFFERSIZE, Self.bigBufferSize) }
        // Waiting for a connection to say whether it multiplexes pays only where it may (https
        // with HTTP/2). Over plain HTTP libcurl learns that a connection is HTTP/1.1 only from its
        // first response head, so with PIPEWAIT every other request to a new origin waited for
        // that head: behind a slow first answer, concurrent requests went out one at a time.
        if plan.mayMultiplex { try set(CURLOPT_PIPEWAIT, 1) }
        if let proxy = plan.proxy, !(proxy.isEmpty && context.pointee.proxyIsDirect) {
            try set(CURLOPT_PROXY, proxy)
            context.pointee.proxyIsDirect = proxy.isEmpty
        }
    }

    /// Puts every option that `configure` set for this request back to libcurl's default, so
    /// that the handle can serve the next request with only the transport's constant options.
    /// Returns false when libcurl refused one: the handle must then be freed, not kept.
    func resetRequestOptions() -> Bool {
        var ok = true
        func reset(_ code: CURLcode) { ok = ok && code == CURLE_OK }
        if plan.freshConnection { reset(ccurl_easy_setopt_long(easy, CURLOPT_FRESH_CONNECT, 0)) }
        // HTTPGET also turns NOBODY and POST off.
        if plan.method != .get { reset(ccurl_easy_setopt_long(easy, CURLOPT_HTTPGET, 1)) }
        if case .custom = plan.method { reset(ccurl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, nil)) }
        if plan.upload != .none {
            reset(ccurl_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, -1))
            if plan.bigUpload {
                reset(ccurl_easy_setopt_long(easy, CURLOPT_UPLOAD_BUFFERSIZE, Self.defaultUploadBufferSize))
            }
        }
        if plan.bigDownload(streamed: stream != nil) {
            reset(ccurl_easy_setopt_long(easy, CURLOPT_BUFFERSIZE, Self.defaultBufferSize))
        }
        if plan.mayMultiplex { reset(ccurl_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 0)) }
        return ok
    }

    /// The options that every request of the transport shares (the plan's copies of the
    /// transport's configuration), set once per easy handle. The callbacks take their transfer
    /// from the handle's context, their user pointer, where `configure` puts it and
    /// `releaseHandle` clears it.
    private func configureConstants() throws {
        let context = UnsafeMutableRawPointer(handle.context)
        let errorBuffer = handle.context.pointee.errorBuffer
        try check(ccurl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer), "ERRORBUFFER")
        try check(ccurl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context), "WRITEDATA")
        try check(ccurl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context), "HEADERDATA")
        try check(ccurl_easy_setopt_pointer(easy, CURLOPT_XFERINFODATA, context), "XFERINFODATA")
        try set(CURLOPT_PROTOCOLS_STR, plan.allowedProtocols)
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_TCP_KEEPALIVE, 1)
        try check(
            ccurl_easy_setopt_read_function(easy) { buffer, size, count, user in
                guard let buffer, let user else { return ccurl_readfunc_abort() }
                let count = CurlTransfer.borrow(user) { $0.sendBody(into: buffer, capacity: size * count) }
                return count.flatMap { $0 } ?? ccurl_readfunc_abort()
            }, "READFUNCTION")
        try check(
            ccurl_easy_setopt_seek_function(easy) { user, offset, origin in
                guard let user, offset == 0, origin == SEEK_SET else { return ccurl_seekfunc_cantseek() }
                let rewound = CurlTransfer.borrow(user) { $0.rewindBody() } ?? false
                return rewound ? ccurl_seekfunc_ok() : ccurl_seekfunc_cantseek()
            }, "SEEKFUNCTION")
        // libcurl's default read data is `stdin`: every callback gets the context instead (a
        // request without a body reads nothing from its empty source).
        try check(ccurl_easy_setopt_pointer(easy, CURLOPT_READDATA, context), "READDATA")
        try check(ccurl_easy_setopt_pointer(easy, CURLOPT_SEEKDATA, context), "SEEKDATA")
        try check(
            ccurl_easy_setopt_write_function(easy, CURLOPT_WRITEFUNCTION) { bytes, size, count, user in
                guard let user else { return 0 }
                let total = size * count
                let chunk = UnsafeRawBufferPointer(start: bytes, count: total)
                return CurlTransfer.borrow(user) { transfer in
                    if let stream = transfer.stream { return transfer.receiveStreamed(chunk, stream: stream) }
                    return transfer.receiveBody(chunk) ? total : 0
                } ?? 0
            }, "WRITEFUNCTION")
        try check(
            ccurl_easy_setopt_write_function(easy, CURLOPT_HEADERFUNCTION) { bytes, size, count, user in
                guard let user else { return 0 }
                let total = size * count
                let line = UnsafeRawBufferPointer(start: bytes, count: total)
                return CurlTransfer.borrow(user) { $0.receiveHeaderLine(line) } == true ? total : 0
            }, "HEADERFUNCTION")
        try set(CURLOPT_NOPROGRESS, 0)
        try check(
            ccurl_easy_setopt_xferinfo_function(easy) {
                user, downloadTotal, downloaded, uploadTotal, uploaded in
                guard let user else { return 1 }
                let keepGoing = CurlTransfer.borrow(user) { transfer in
                    transfer.reportProgress(
                        downloadTotal: Int64(downloadTotal), downloaded: Int64(downloaded),
                        uploadTotal: Int64(uploadTotal), uploaded: Int64(uploaded))
                }
                return keepGoing == true ? 0 : 1
            }, "XFERINFOFUNCTION")
        // Redirects are followed above the transport, one transfer per hop, as on every transport.
        try set(CURLOPT_FOLLOWLOCATION, 0)
        try set(CURLOPT_ACCEPT_ENCODING, plan.acceptEncoding)
        // On again for each transfer on a reused handle: a head with a coding libcurl cannot decode
        // turns it off (`ContentDecoding`).
        try set(CURLOPT_HTTP_CONTENT_DECODING, 1)
        // A configured proxy, or none in the environment: libcurl reads no `no_proxy` on each
        // transfer (every request of a transport agrees on this).
        if plan.ignoresProxyEnvironment { try set(CURLOPT_NOPROXY, "") }
        try set(
            CURLOPT_HTTP_VERSION, plan.preferHTTP2 ? Int(CURL_HTTP_VERSION_2TLS) : Int(CURL_HTTP_VERSION_1_1))
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
        if let path = plan.caBundlePath { try set(CURLOPT_CAINFO, path) }
        if let pins = plan.pinnedPublicKey { try set(CURLOPT_PINNEDPUBLICKEY, pins) }
        // A proxy's answer to CONNECT (`200 Connection established`) is not the response: without
        // this the head parser would take it for the server's head. Also for proxies from the
        // environment, so it is set whether or not `plan.proxy` is.
        try set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
    }

    /// Runs `body` with the transfer of the handle whose context is a callback's user pointer,
    /// without the retain and release of taking a reference: the loop holds the transfer for as
    /// long as libcurl may call back (see `configure`), and the callbacks run many times a
    /// request. nil when the handle serves no transfer (libcurl never calls back then).
    static func borrow<T>(_ user: UnsafeMutableRawPointer, _ body: (CurlTransfer) -> T) -> T? {
        guard let transfer = user.assumingMemoryBound(to: EasyHandleContext.self).pointee.transfer else {
            return nil
        }
        return Unmanaged<CurlTransfer>.fromOpaque(transfer)._withUnsafeGuaranteedRef(body)
    }

    /// The receive or upload buffer for a big body (libcurl's defaults are 16 and 64 KiB).
    static let bigBufferSize = 256 * 1024
    /// `CURLOPT_BUFFERSIZE`'s default (`CURL_MAX_WRITE_SIZE`).
    static let defaultBufferSize = 16 * 1024
    /// `CURLOPT_UPLOAD_BUFFERSIZE`'s default.
    static let defaultUploadBufferSize = 64 * 1024

    private func set(_ option: CURLoption, _ value: Int) throws {
        try check(ccurl_easy_setopt_long(easy, option, value), "option \(option.rawValue)")
    }

    private func set(_ option: CURLoption, offT value: Int64) throws {
        try check(ccurl_easy_setopt_off_t(easy, option, curl_off_t(value)), "option \(option.rawValue)")
    }

    /// libcurl copies string options (all but POSTFIELDS, which is not used).
    private func set(_ option: CURLoption, _ value: String) throws {
        try check(
            value.withCString { ccurl_easy_setopt_string(easy, option, $0) }, "option \(option.rawValue)")
    }

    /// `what` is only built for the error: a request sets some twenty options.
    private func check(_ code: CURLcode, _ what: @autoclosure () -> String) throws {
        guard code == CURLE_OK else {
            throw CourierError(
                .invalidConfiguration,
                "libcurl refused \(what()): \(String(cString: curl_easy_strerror(code)))", request: request
            )
        }
    }
}
