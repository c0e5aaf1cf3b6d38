import Courier
import CourierCache
import CourierEvents
import CourierInterceptors
import CourierPrimitives
import CourierTesting
import Foundation
import MockServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every interceptor Courier ships, alone and together, × every way to call × both transports,
/// cold and warm, through a fresh resource and one revalidated with a `304`: each call gives the
/// bytes and status of the same call without the interceptor, and the cache says where its answer
/// came from. One pipeline under every call is what makes this hold.
@Suite struct CallMatrixTests {
    enum Feature: String, CaseIterable, Sendable {
        case retry, auth, cache, logging, all
    }

    enum Call: String, CaseIterable, Sendable {
        case send, sendRaw, download, resumedDownload, stream, events, completion
    }

    /// What a call gave: its bytes, its status and where the answer came from (nil where the
    /// call does not say, as `events`).
    struct Outcome: Equatable, CustomStringConvertible {
        var bytes: Data
        var status: Int
        var source: ResponseSource?

        var description: String {
            "\(status) \(source.map { "\($0)" } ?? "-") \(String(decoding: bytes, as: UTF8.self))"
        }
    }

    @Test(arguments: TransportUnderTest.all, Feature.allCases)
    func everyCallGivesWhatItGivesWithoutTheInterceptor(transport: TransportUnderTest, feature: Feature)
        async throws
    {
        try await OneExchangeTests.withOrigin { _, base in
            try await transport.with { sut in
                let folder = try TemporaryDirectory()
                let plain = NetworkManager(transport: sut, baseURL: base)
                let featured = try Self.manager(with: feature, over: sut, base: base, folder: folder.url)
                let cache = featured.settings.interceptors.compactMap { $0 as? HTTPCache }.first
                for path in ["/doc", "/stale"] {
                    for call in Call.allCases {
                        let expected = try await Self.run(call, path, on: plain, in: folder.url)
                        await cache?.waitForRevalidations()
                        cache?.removeAll()
                        for warmth in ["cold", "warm"] {
                            let got = try await Self.run(call, path, on: featured, in: folder.url)
                            let what = "\(feature) \(call) \(path) \(warmth) over \(transport)"
                            #expect(got.bytes == expected.bytes, "\(what): \(got) against \(expected)")
                            #expect(got.status == expected.status, "\(what): \(got) against \(expected)")
                            if let source = got.source {
                                let wanted = Self.source(feature, call, path, warm: warmth == "warm")
                                #expect(wanted.contains(source), "\(what): from \(source), not \(wanted)")
                            }
                        }
                    }
                }
            }
        }
    }

    /// Where a call's answer may come from: the network unless the cache holds it. A warm fresh
    /// entry answers from the cache; a warm stale one is revalidated, but a range of it (the
    /// resumed download) goes to the server. An event stream asks for no cached answer.
    static func source(_ feature: Feature, _ call: Call, _ path: String, warm: Bool) -> Set<ResponseSource> {
        guard warm, feature == .cache || feature == .all, call != .events else { return [.network] }
        if path == "/doc" { return [.cache] }
        return call == .resumedDownload ? [.network] : [.revalidated]
    }

    static func manager(with feature: Feature, over transport: any Transport, base: URL, folder: URL) throws
        -> NetworkManager
    {
        let retry = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10), maxDelay: .milliseconds(10))
        let auth = AuthInterceptor(provider: FixedToken())
        let cache = try HTTPCache(directory: folder.appendingPathComponent("cache"))
        let logging = LoggingEventMonitor(write: { _ in })
        switch feature {
        case .retry: return NetworkManager(transport: transport, baseURL: base, interceptors: [retry])
        case .auth: return NetworkManager(transport: transport, baseURL: base, interceptors: [auth])
        case .cache: return NetworkManager(transport: transport, baseURL: base, interceptors: [cache])
        case .logging: return NetworkManager(transport: transport, baseURL: base, eventMonitors: [logging])
        case .all:
            return NetworkManager(
                transport: transport, baseURL: base, interceptors: [retry, auth, cache],
                eventMonitors: [logging])
        }
    }

    /// Makes `call` of `path` on `manager` and says what it gave.
    static func run(_ call: Call, _ path: String, on manager: NetworkManager, in folder: URL) async throws
        -> Outcome
    {
        let request = URLRequest(url: try #require(URL(string: path)))
        switch call {
        case .send:
            let response = try await manager.send(request, as: Data.self)
            return Outcome(bytes: response.value, status: response.status, source: response.source)
        case .sendRaw:
            let response = try await manager.sendRaw(request)
            return Outcome(bytes: response.value, status: response.status, source: response.source)
        case .download, .resumedDownload:
            let file = folder.appendingPathComponent("download-\(UUID().uuidString)")
            if call == .resumedDownload {
                // The first 10 bytes of an earlier run, and the validator they were read under.
                try OneExchangeTests.document.prefix(10).write(to: file)
                let etag = path == "/doc" ? #"\"d1\""# : #"\"s1\""#
                let url = try #require(URL(string: path, relativeTo: manager.baseURL)).absoluteString
                let record = #"{"url":"\#(url)","etag":"\#(etag)"}"#
                try Data(record.utf8).write(to: NetworkManager.resumeRecordURL(for: file))
            }
            let response = try await manager.download(request, to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            if call == .resumedDownload {
                #expect(response.status == 206, "the download resumed after the 10 bytes it had")
            }
            return Outcome(
                bytes: try Data(contentsOf: file), status: response.status, source: response.source)
        case .stream:
            let response = try await manager.stream(request)
            return Outcome(
                bytes: try await response.value.collect(upTo: 1 << 20), status: response.status,
                source: response.source)
        case .events:
            var texts: [String] = []
            for try await event in try manager.events(
                URLRequest(url: try #require(URL(string: "/events"))),
                options: EventStreamOptions(maxReconnects: 0))
            {
                texts.append(event.data)
                if texts.count == 2 { break }
            }
            return Outcome(bytes: Data(texts.joined(separator: ",").utf8), status: 200, source: nil)
        case .completion:
            let response = try await withCheckedThrowingContinuation { continuation in
                manager.request(request, as: Data.self) { continuation.resume(with: $0) }
            }
            return Outcome(bytes: response.value, status: response.status, source: response.source)
        }
    }

    /// A token that never changes.
    struct FixedToken: TokenProvider {
        func currentToken() async throws -> String? { "t1" }
        func refreshToken() async throws -> String { "t1" }
    }
}
