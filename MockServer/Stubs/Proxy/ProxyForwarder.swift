import CourierPrimitives
import Foundation

/// A stub's proxy settings: `proxyBaseUrl` and the header edits.
struct ProxySettings: Sendable {
    var baseURL: String
    var additionalHeaders: [(name: String, value: String)] = []
    var removeHeaders: [String] = []
    var prefixToRemove: String?

    /// Reads the proxy keys of a `response` object; nil when it has no `proxyBaseUrl`.
    /// - Throws: ``ValuePattern/InvalidMapping`` naming the malformed key.
    static func parse(_ members: [String: JSONValue], at location: String) throws -> ProxySettings? {
        guard let base = members["proxyBaseUrl"] else {
            for key in [
                "additionalProxyRequestHeaders", "removeProxyRequestHeaders", "proxyUrlPrefixToRemove",
            ]
            where members[key] != nil {
                throw ValuePattern.InvalidMapping(description: "\(location).\(key) needs a proxyBaseUrl")
            }
            return nil
        }
        guard let text = base.stringValue, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else {
            throw ValuePattern.InvalidMapping(
                description: "\(location).proxyBaseUrl must be an http or https URL such as http://host:8080")
        }
        var settings = ProxySettings(baseURL: text.hasSuffix("/") ? String(text.dropLast()) : text)
        if let headers = members["additionalProxyRequestHeaders"] {
            guard case .object(let fields) = headers else {
                throw ValuePattern.InvalidMapping(
                    description: "\(location).additionalProxyRequestHeaders must be an object of name → value"
                )
            }
            settings.additionalHeaders = fields.keys.sorted().map { ($0, fields[$0]?.matchText ?? "") }
        }
        if let remove = members["removeProxyRequestHeaders"] {
            guard case .array(let names) = remove, names.allSatisfy({ $0.stringValue != nil }) else {
                throw ValuePattern.InvalidMapping(
                    description: "\(location).removeProxyRequestHeaders must be an array of header names")
            }
            settings.removeHeaders = names.compactMap(\.stringValue)
        }
        if let prefix = members["proxyUrlPrefixToRemove"] {
            guard let text = prefix.stringValue else {
                throw ValuePattern.InvalidMapping(
                    description: "\(location).proxyUrlPrefixToRemove must be a string")
            }
            settings.prefixToRemove = text
        }
        return settings
    }
}

/// Forwards requests upstream through a ``ProxyClient``, within a time limit, without blocking the loop.
struct ProxyForwarder: Sendable {
    let client: any ProxyClient
    let timeout: Duration
    /// The largest upstream body taken (a client of the user's that reads more is refused after).
    var maxResponseBytes: Int64 = 64 << 20

    /// Header fields that belong to one connection and are never forwarded (RFC 9110 §7.6.1), plus those
    /// the server or the client sets itself.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
        "transfer-encoding", "upgrade", "host", "content-length", "accept-encoding", "expect",
    ]
    static let responseHopByHop: Set<String> = [
        "connection", "keep-alive", "transfer-encoding", "content-length", "date", "server",
    ]

    /// The request as sent upstream.
    func upstreamRequest(_ request: ServerRequest, _ settings: ProxySettings) -> ProxyRequest? {
        var target = request.target
        if let prefix = settings.prefixToRemove, target.hasPrefix(prefix) {
            target = String(target.dropFirst(prefix.count))
            if !target.hasPrefix("/") { target = "/" + target }
        }
        guard let url = URL(string: settings.baseURL + target) else { return nil }
        let removed = Set(settings.removeHeaders.map { $0.lowercased() })
        let added = Set(settings.additionalHeaders.map { $0.name.lowercased() })
        var headers: [(name: String, value: String)] = request.headers.fields.filter {
            let name = $0.name.lowercased()
            return !Self.hopByHop.contains(name) && !removed.contains(name) && !added.contains(name)
        }
        headers += settings.additionalHeaders
        return ProxyRequest(
            method: request.method, url: url, headers: headers, body: (try? request.bodyData()) ?? Data(),
            timeout: timeout, maxResponseBytes: maxResponseBytes)
    }

    /// Answers `request` later with the upstream's response, a 502 when the upstream cannot be reached,
    /// or a 504 when it takes longer than the time limit; `observe` sees each exchange that got a response.
    func forward(
        _ request: ServerRequest, _ settings: ProxySettings,
        observe: @escaping @Sendable (ServerResponse, ProxyRequest, ProxyResponse?) -> Void
    ) -> ServerResponse {
        guard let upstream = upstreamRequest(request, settings) else {
            return .text(
                "Cannot proxy: \(settings.baseURL)\(request.target) is not a valid URL\n", status: 502)
        }
        let deferred = DeferredResponse()
        let cancel = Locked<(@Sendable () -> Void)?>(nil)
        let finish: @Sendable (Result<ProxyResponse, any Error>) -> Void = { result in
            let response: ServerResponse
            var proxied: ProxyResponse?
            switch result {
            case .success(let answer) where answer.body.count > upstream.maxResponseBytes:
                let error = ProxyResponseTooLarge(limit: upstream.maxResponseBytes)
                response = .text("Proxying to \(upstream.url.absoluteString) failed: \(error)\n", status: 502)
            case .success(let answer):
                proxied = answer
                response = Self.serverResponse(answer)
            case .failure(let error):
                response = .text("Proxying to \(upstream.url.absoluteString) failed: \(error)\n", status: 502)
            }
            // Recorded before the client can see the answer, so a recording stopped right after holds it.
            deferred.complete(response) { observe(response, upstream, proxied) }
        }
        // Neither the exchange nor the time limit needs a thread of the Swift concurrency pool when the client
        // reports on a callback (the default one does).
        if let callbackClient = client as? any CallbackProxyClient {
            cancel.withLock { $0 = callbackClient.send(upstream, completion: finish) }
        } else {
            let client = client
            let task = Task {
                do {
                    finish(.success(try await client.send(upstream)))
                } catch {
                    finish(.failure(error))
                }
            }
            cancel.withLock { $0 = { task.cancel() } }
        }
        let limit = timeout
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Self.nanoseconds(limit))) {
            let timedOut = ServerResponse.text(
                "Proxying to \(upstream.url.absoluteString) timed out after \(limit)\n", status: 504)
            if deferred.complete(timedOut) {
                cancel.withLock { $0 }?()
                observe(timedOut, upstream, nil)
            }
        }
        return ServerResponse(deferred: deferred)
    }

    static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
    }

    static func serverResponse(_ answer: ProxyResponse) -> ServerResponse {
        var headers = ServerHeaders()
        for (name, value) in answer.headers where !responseHopByHop.contains(name.lowercased()) {
            headers.add(name: name, value: value)
        }
        return ServerResponse(status: answer.status, headers: headers, body: .data(answer.body))
    }
}
