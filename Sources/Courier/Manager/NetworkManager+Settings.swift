import CourierCookies
import CourierJSON
import Foundation

extension NetworkManager {
    /// Everything a manager is made of but its transport, as one value: what to copy, change and
    /// pass to `init(transport:settings:)` to make another manager like it.
    ///
    /// ```swift
    /// import CourierInterceptors
    ///
    /// var settings = manager.settings
    /// settings.interceptors.append(RequestAdapter { $0.headers["X-Trace"] = "on" })
    /// let traced = NetworkManager(transport: manager.transport, settings: settings)
    /// ```
    public struct Settings: Sendable {
        /// What relative endpoint paths resolve against.
        public var baseURL: URL?
        /// Per-transfer limits (response size, timeouts, redirects).
        public var transferOptions: TransferOptions
        /// The interceptors, outermost first.
        public var interceptors: [any Interceptor]
        /// Which responses are success.
        public var validation: Validation
        /// Header fields added to every request that does not set them.
        public var defaultHeaders: HTTPHeaders
        /// Receive events for logging and metrics.
        public var eventMonitors: [any EventMonitor]
        /// Where completion handlers run. Default: a global queue, because `DispatchQueue.main` never
        /// runs in a command-line program on Linux that has no run loop; apps pass `.main` to update UI
        /// from the handler.
        public var callbackQueue: DispatchQueue
        /// The decoder for response bodies: `CourierJSONDecoder` unless another is given.
        public var decoder: any ResponseBodyDecoder
        /// The cookies kept between requests; `nil` keeps none.
        public var cookieJar: CookieJar?

        /// Creates settings; the defaults are `NetworkManager.init(transport:)`'s.
        public init(
            baseURL: URL? = nil, transferOptions: TransferOptions = TransferOptions(),
            interceptors: [any Interceptor] = [], validation: Validation = .default,
            defaultHeaders: HTTPHeaders = HTTPHeaders(), eventMonitors: [any EventMonitor] = [],
            callbackQueue: DispatchQueue = .global(),
            decoder: any ResponseBodyDecoder = CourierJSONDecoder.courier,
            cookieJar: CookieJar? = CookieJar()
        ) {
            self.baseURL = baseURL
            self.transferOptions = transferOptions
            self.interceptors = interceptors
            self.validation = validation
            self.defaultHeaders = defaultHeaders
            self.eventMonitors = eventMonitors
            self.callbackQueue = callbackQueue
            self.decoder = decoder
            self.cookieJar = cookieJar
        }
    }
}
