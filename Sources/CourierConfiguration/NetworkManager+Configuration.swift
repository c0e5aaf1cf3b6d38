import Courier
import CourierCookies
import CourierInterceptors
import Dispatch
import Foundation

extension NetworkManager {
    /// Creates a manager from a configuration: its base URL, default headers, limits and
    /// timeouts, a `RetryPolicy` from its retry settings as the outermost interceptor (none
    /// when `retry.maxAttempts` is 1), and a decoder with its key and date strategies.
    ///
    /// - Parameters:
    ///   - configuration: the settings, usually from `courier.json`.
    ///   - transport: the transport, usually made from `configuration.transport`.
    ///   - interceptors: more interceptors, inside the retry policy (an auth interceptor).
    ///   - validation: which responses are success; default 2xx.
    ///   - eventMonitors: receive events for logging and metrics.
    ///   - callbackQueue: where completion handlers run; default a global queue.
    ///   - cookieJar: the cookies kept between requests; default a new jar in memory, `nil`
    ///     for none.
    ///   - decoder: the response body decoder; default (`nil`) a `CourierJSONDecoder` with
    ///     `configuration.decoding`'s strategies.
    public convenience init(
        configuration: Configuration,
        transport: any Transport,
        interceptors: [any Interceptor] = [],
        validation: Validation = .default,
        eventMonitors: [any EventMonitor] = [],
        callbackQueue: DispatchQueue = .global(),
        cookieJar: CookieJar? = CookieJar(),
        decoder: (any ResponseBodyDecoder)? = nil
    ) {
        var chain: [any Interceptor] = []
        if configuration.retry.maxAttempts > 1 { chain.append(RetryPolicy(configuration.retry)) }
        chain += interceptors
        self.init(
            transport: transport, baseURL: configuration.baseURL,
            transferOptions: configuration.transferOptions, interceptors: chain, validation: validation,
            defaultHeaders: HTTPHeaders(configuration.defaultHeaders.sorted { $0.key < $1.key }),
            eventMonitors: eventMonitors, callbackQueue: callbackQueue,
            decoder: decoder ?? configuration.decoding.decoder, cookieJar: cookieJar)
    }
}
