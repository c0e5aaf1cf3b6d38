import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLProtocolMock {
    private static let registered = Locked(false)

    /// Registers ``CourierURLProtocol`` in front of every URLSession that takes the registered protocol
    /// classes, `URLSession.shared` included, so code calling `URLSession.shared` directly is answered by
    /// the live mocks (requests no mock claims still go to the network).
    ///
    /// On Linux, FoundationNetworking consults the registered classes in the order they were registered,
    /// after its own HTTP protocol, and `URLSession.shared` keeps the list it was made with: this moves
    /// the class in front of the built-in ones, and it must run before anything in the process first uses
    /// `URLSession.shared`.
    /// - Throws: ``URLProtocolMockError`` when `URLSession.shared` was made earlier without the class.
    public static func interceptSharedSession() throws(URLProtocolMockError) {
        registered.withLock { done in
            guard !done else { return }
            done = true
            #if canImport(FoundationNetworking)
                let builtIn = (URLSessionConfiguration.default.protocolClasses ?? []).filter {
                    $0 != CourierURLProtocol.self
                }
                for protocolClass in builtIn { URLProtocol.unregisterClass(protocolClass) }
                _ = URLProtocol.registerClass(CourierURLProtocol.self)
                for protocolClass in builtIn { _ = URLProtocol.registerClass(protocolClass) }
            #else
                _ = URLProtocol.registerClass(CourierURLProtocol.self)
            #endif
        }
        #if canImport(FoundationNetworking)
            // Foundation's own HTTP protocol takes every http(s) request: the class must come before it.
            let classes = URLSession.shared.configuration.protocolClasses ?? []
            let builtIn = (URLSessionConfiguration.default.protocolClasses ?? []).filter {
                $0 != CourierURLProtocol.self
            }
            let ours = classes.firstIndex { $0 == CourierURLProtocol.self }
            let firstBuiltIn = classes.firstIndex { candidate in builtIn.contains { $0 == candidate } }
            guard let ours, ours < firstBuiltIn ?? classes.count else {
                throw URLProtocolMockError(
                    "URLSession.shared was made before CourierURLProtocol was registered, and on Linux it keeps "
                        + "the protocol list it was made with; call URLProtocolMock.interceptSharedSession() "
                        + "before anything uses URLSession.shared (its classes: \(classes))")
            }
        #endif
    }
}
