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
        /// Where completion handlers run.
        public var callbackQueue: DispatchQueue
        /// The response body decoder.
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

    /// This manager's settings (its cookie jar is shared, not copied).
    public var settings: Settings {
        Settings(
            baseURL: baseURL, transferOptions: transferOptions, interceptors: interceptors,
            validation: validation,
            defaultHeaders: defaultHeaders, eventMonitors: eventMonitors, callbackQueue: callbackQueue,
            decoder: decoder, cookieJar: cookieJar)
    }

    /// Creates a manager from `settings`.
    /// - Parameters:
    ///   - transport: what sends the bytes.
    ///   - settings: everything else.
    public convenience init(transport: any Transport, settings: Settings) {
        self.init(
            transport: transport, baseURL: settings.baseURL, transferOptions: settings.transferOptions,
            interceptors: settings.interceptors, validation: settings.validation,
            defaultHeaders: settings.defaultHeaders, eventMonitors: settings.eventMonitors,
            callbackQueue: settings.callbackQueue, decoder: settings.decoder, cookieJar: settings.cookieJar)
    }
}
