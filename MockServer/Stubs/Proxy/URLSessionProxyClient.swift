import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``ProxyClient``: Foundation's URLSession, an ephemeral session without cookies, cache or
/// redirects. On Linux URLSession reaches HTTPS upstreams through the system's libcurl and trust store;
/// it offers no way to trust another certificate authority (use a client that does, such as the
/// `courier` tool's libcurl transport).
public final class URLSessionProxyClient: ProxyClient {
    private let session: URLSession
    private let exchanges = ProxyExchanges()

    /// Creates a client with its own session.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: exchanges, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Sends the request without following redirects.
    /// - Parameter request: the request to forward.
    /// - Returns: the upstream's answer.
    /// - Throws: URLSession's error when no response arrives.
    public func send(_ request: ProxyRequest) async throws -> ProxyResponse {
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<ProxyResponse, any Error>) in
                // The completion runs exactly once: the only resume.
                let cancel = send(request) { continuation.resume(with: $0) }
                // A cancellation that came before the task existed is carried out now.
                let cancelledAlready = box.state.withLock { state in
                    state.cancel = cancel
                    return state.cancelled
                }
                if cancelledAlready { cancel() }
            }
        } onCancel: {
            box.state.withLock { state in
                state.cancelled = true
                return state.cancel
            }?()
        }
    }

    private final class TaskBox: Sendable {
        struct State {
            var cancel: (@Sendable () -> Void)?
            var cancelled = false
        }
        let state = Locked(State())
    }
}

extension URLSessionProxyClient: CallbackProxyClient {
    func send(
        _ request: ProxyRequest, completion: @escaping @Sendable (Result<ProxyResponse, any Error>) -> Void
    )
        -> @Sendable () -> Void
    {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = Double(request.timeout.components.seconds) + 1
        for (name, value) in request.headers { urlRequest.addValue(value, forHTTPHeaderField: name) }
        // URLSession decodes gzip itself and would keep Content-Encoding: ask for the identity coding.
        urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if !request.body.isEmpty { urlRequest.httpBody = request.body }
        let task = session.dataTask(with: urlRequest)
        exchanges.begin(task, limit: request.maxResponseBytes, completion: completion)
        task.resume()
        return { task.cancel() }
    }
}

/// A client that reports on a callback: the server uses it without the Swift concurrency pool, so a
/// proxied answer never waits for a pool thread that the embedding program keeps busy.
protocol CallbackProxyClient: ProxyClient {
    /// Sends `request`; `completion` runs once, on any thread. Returns a function that cancels.
    func send(
        _ request: ProxyRequest, completion: @escaping @Sendable (Result<ProxyResponse, any Error>) -> Void
    )
        -> @Sendable () -> Void
}

/// The session's delegate: refuses redirects (the 3xx itself comes back) and collects each task's body
/// up to its budget, cutting the upstream off as soon as it announces or sends more.
private final class ProxyExchanges: NSObject, URLSessionDataDelegate, Sendable {
    private struct Exchange {
        var limit: Int64
        var body = Data()
        var response: HTTPURLResponse?
        var failure: (any Error)?
        var completion: @Sendable (Result<ProxyResponse, any Error>) -> Void
    }

    private let exchanges = Locked<[Int: Exchange]>([:])

    func begin(
        _ task: URLSessionTask, limit: Int64,
        completion: @escaping @Sendable (Result<ProxyResponse, any Error>) -> Void
    ) {
        exchanges.withLock { $0[task.taskIdentifier] = Exchange(limit: limit, completion: completion) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let tooLarge = exchanges.withLock { exchanges -> Bool in
            guard var exchange = exchanges[dataTask.taskIdentifier] else { return false }
            exchange.response = response as? HTTPURLResponse
            let announced = response.expectedContentLength
            if announced > exchange.limit { exchange.failure = ProxyResponseTooLarge(limit: exchange.limit) }
            exchanges[dataTask.taskIdentifier] = exchange
            return exchange.failure != nil
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge = exchanges.withLock { exchanges -> Bool in
            guard var exchange = exchanges[dataTask.taskIdentifier], exchange.failure == nil else {
                return false
            }
            if Int64(exchange.body.count + data.count) > exchange.limit {
                exchange.failure = ProxyResponseTooLarge(limit: exchange.limit)
                exchange.body = Data()
            } else {
                exchange.body.append(data)
            }
            exchanges[dataTask.taskIdentifier] = exchange
            return exchange.failure != nil
        }
        if tooLarge { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else {
            return
        }
        if let failure = exchange.failure ?? error {
            exchange.completion(.failure(failure))
            return
        }
        guard let http = exchange.response ?? task.response as? HTTPURLResponse else {
            exchange.completion(.failure(URLError(.badServerResponse)))
            return
        }
        var headers: [(name: String, value: String)] = []
        for (key, value) in http.allHeaderFields {
            headers.append((String(describing: key), String(describing: value)))
        }
        headers.sort { $0.name.lowercased() < $1.name.lowercased() }
        exchange.completion(
            .success(ProxyResponse(status: http.statusCode, headers: headers, body: exchange.body)))
    }
}

/// A ``URLSessionProxyClient`` made on first use, so that servers that never proxy open no session.
final class DefaultProxyClient: CallbackProxyClient {
    private let client = Locked<URLSessionProxyClient?>(nil)

    private var shared: URLSessionProxyClient {
        client.withLock { client in
            if let client { return client }
            let made = URLSessionProxyClient()
            client = made
            return made
        }
    }

    func send(_ request: ProxyRequest) async throws -> ProxyResponse {
        try await shared.send(request)
    }

    func send(
        _ request: ProxyRequest, completion: @escaping @Sendable (Result<ProxyResponse, any Error>) -> Void
    )
        -> @Sendable () -> Void
    {
        shared.send(request, completion: completion)
    }
}
