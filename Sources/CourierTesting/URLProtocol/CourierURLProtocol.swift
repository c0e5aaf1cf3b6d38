import CourierPrimitives
import Dispatch
import Foundation
import MockServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `URLProtocol` that answers a URLSession's requests in process, from a ``URLProtocolMock``'s
/// stubs and handlers, without a socket.
///
/// It takes a request only when a live mock claims it: the request carries that mock's token in
/// ``scopeHeader``, or its host is the mock's own (``URLProtocolMock/baseURL``) or one the mock
/// serves (``URLProtocolMock/serve(host:)``). Everything else goes to the network as usual, so other
/// tests in the process are not disturbed.
///
/// Put it into a session configuration with ``URLProtocolMock/install(into:)``, or in front of
/// `URLSession.shared` with ``URLProtocolMock/interceptSharedSession()``. A stub's delay is kept; a
/// fault ends the exchange as a lost connection; a dribble's pacing is not kept (the body comes whole);
/// a redirect is answered as it is, not followed.
public final class CourierURLProtocol: URLProtocol {
    /// The header that names the mock scope a request belongs to (its ``URLProtocolMock/token``); it
    /// is removed before stubs see the request.
    public static let scopeHeader = "X-Courier-Mock-Scope"

    /// The answer waiting for its delay, cancelled by `stopLoading`.
    private let pending = Locked<DispatchWorkItem?>(nil)

    override public class func canInit(with request: URLRequest) -> Bool {
        URLProtocolRegistry.shared.mock(for: request) != nil
    }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    override public func startLoading() {
        guard let mock = URLProtocolRegistry.shared.mock(for: request) else {
            client?.urlProtocol(self, didFailWithError: URLError(.cancelled))
            return
        }
        let uploadBody: Data?
        do {
            uploadBody = try task.flatMap(UploadBody.data(of:))
        } catch {
            client?.urlProtocol(
                self,
                didFailWithError: URLError(
                    .cannotOpenFile,
                    userInfo: [
                        NSLocalizedDescriptionKey:
                            "URLProtocolMock: the upload's file cannot be read: \(error)"
                    ]))
            return
        }
        let serverRequest = Self.serverRequest(from: request, uploadBody: uploadBody)
        if let cassette = mock.cassette {
            answer(from: cassette, serverRequest, mock: mock)
            return
        }
        let answer = mock.answer(serverRequest)
        if let unsupported = answer.unsupported {
            client?.urlProtocol(
                self,
                didFailWithError: URLError(
                    .unsupportedURL, userInfo: [NSLocalizedDescriptionKey: "URLProtocolMock: \(unsupported)"])
            )
            return
        }
        guard let delay = answer.delay, delay > .zero else {
            deliver(status: answer.status, headers: answer.headers, body: answer.body, fault: answer.fault)
            return
        }
        let work = DispatchWorkItem { [weak self] in
            self?.deliver(
                status: answer.status, headers: answer.headers, body: answer.body, fault: answer.fault)
        }
        pending.withLock { $0 = work }
        let nanoseconds =
            delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds)), execute: work)
    }

    override public func stopLoading() {
        pending.withLock { work in
            work?.cancel()
            work = nil
        }
        forwarding.withLock { task in
            task?.cancel()
            task = nil
        }
    }

    /// The request sent to the network to be recorded, cancelled by `stopLoading`.
    private let forwarding = Locked<URLSessionDataTask?>(nil)

    /// The session that reaches the network for a recording cassette; it never takes this class.
    private static let passthrough: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = (configuration.protocolClasses ?? []).filter {
            $0 != CourierURLProtocol.self
        }
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()

    /// Replays the cassette's recording, records the exchange over the network when the cassette may,
    /// or fails naming the closest recording.
    private func answer(from cassette: Cassette, _ serverRequest: ServerRequest, mock: URLProtocolMock) {
        guard let url = request.url else { return }
        let (answer, nearMisses) = cassette.replay(
            method: serverRequest.method, url: url, body: serverRequest.body)
        if let answer {
            deliver(status: answer.status, headers: answer.headers, body: answer.body, fault: answer.fault)
            return
        }
        guard cassette.records else {
            mock.noteUnmatched(serverRequest, nearMisses: nearMisses)
            let reason =
                "the cassette \(cassette.folder.lastPathComponent) (mode \(cassette.mode)) has no recording for "
                + "\(serverRequest.method) \(Cassette.redactedTarget(url))\n\(nearMisses)"
            client?.urlProtocol(
                self,
                didFailWithError: URLError(
                    .resourceUnavailable, userInfo: [NSLocalizedDescriptionKey: reason]))
            return
        }
        var forwarded = request
        forwarded.setValue(nil, forHTTPHeaderField: Self.scopeHeader)
        if !serverRequest.body.isEmpty { forwarded.httpBody = serverRequest.body }
        let box = WeakProtocol(self)
        let forwarding = forwarding
        let outgoing = forwarded
        // Off the loading queue: FoundationNetworking traps when another session's task is made on it.
        DispatchQueue.global().async {
            Self.forward(
                outgoing, through: box, cassette: cassette, serverRequest, url: url, into: forwarding)
        }
    }

    /// Sends a request a recording cassette has not seen to the network, records it, and answers with it.
    private static func forward(
        _ outgoing: URLRequest, through box: WeakProtocol, cassette: Cassette, _ serverRequest: ServerRequest,
        url: URL, into forwarding: Locked<URLSessionDataTask?>
    ) {
        let task = passthrough.dataTask(with: outgoing) { data, response, error in
            guard let self = box.value else { return }
            guard let response = response as? HTTPURLResponse, error == nil else {
                self.client?.urlProtocol(self, didFailWithError: error ?? URLError(.badServerResponse))
                return
            }
            let body = data ?? Data()
            var headers: [(name: String, value: String)] = []
            for (name, value) in response.allHeaderFields {
                headers.append((String(describing: name), String(describing: value)))
            }
            do {
                try cassette.record(
                    method: serverRequest.method, url: url, body: serverRequest.body,
                    status: response.statusCode,
                    headers: headers, responseBody: body)
            } catch {
                self.client?.urlProtocol(self, didFailWithError: error)
                return
            }
            self.deliver(status: response.statusCode, headers: headers, body: body, fault: nil)
        }
        forwarding.withLock { $0 = task }
        task.resume()
    }

    private func deliver(
        status: Int, headers: [(name: String, value: String)], body: Data, fault: ServerFault?
    ) {
        let answer = (status: status, headers: headers, body: body, fault: fault)
        guard let url = request.url else { return }
        var fields: [String: String] = [:]
        for (name, value) in answer.headers {
            fields[name] = fields[name].map { $0 + ", " + value } ?? value
        }
        guard
            let response = HTTPURLResponse(
                url: url, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: fields)
        else {
            client?.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
            return
        }
        if answer.fault != nil && answer.fault != .truncatedBody {
            client?.urlProtocol(self, didFailWithError: URLError(.networkConnectionLost))
            return
        }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        if !answer.body.isEmpty { client?.urlProtocol(self, didLoad: answer.body) }
        if answer.fault == .truncatedBody {
            client?.urlProtocol(self, didFailWithError: URLError(.networkConnectionLost))
        } else {
            client?.urlProtocolDidFinishLoading(self)
        }
    }

    /// The request as the mock server would have parsed it off a connection, without the scope header.
    static func serverRequest(from request: URLRequest, uploadBody: Data?) -> ServerRequest {
        let url = request.url
        var target =
            url.map { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? "/" }
            ?? "/"
        if target.isEmpty { target = "/" }
        if let query = url.flatMap({
            URLComponents(url: $0, resolvingAgainstBaseURL: false)?.percentEncodedQuery
        }) {
            target += "?" + query
        }
        var headers = ServerHeaders()
        if let host = url?.host {
            headers.add(name: "Host", value: url?.port.map { "\(host):\($0)" } ?? host)
        }
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key })
        where name.caseInsensitiveCompare(scopeHeader) != .orderedSame && name.lowercased() != "host" {
            headers.add(name: name, value: value)
        }
        let body = request.httpBody ?? request.httpBodyStream.map(UploadBody.read) ?? uploadBody ?? Data()
        return ServerRequest(
            method: (request.httpMethod ?? "GET").uppercased(), target: target, headers: headers, body: body,
            remoteAddress: "in-process")
    }
}

/// A protocol instance for a forwarded request's completion, which URLSession calls on its own queue.
// @unchecked: URLProtocol is not Sendable, but URLSession calls its client from any queue by design, and
// the instance's own state is behind locks; the reference is weak, so a stopped load is not kept alive.
private final class WeakProtocol: @unchecked Sendable {
    weak var value: CourierURLProtocol?
    init(_ value: CourierURLProtocol) { self.value = value }
}
