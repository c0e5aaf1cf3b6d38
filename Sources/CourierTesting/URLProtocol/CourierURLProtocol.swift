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
        let serverRequest = Self.serverRequest(from: request, uploadBody: task.flatMap(UploadBody.data(of:)))
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
            deliver(answer)
            return
        }
        let work = DispatchWorkItem { [weak self] in self?.deliver(answer) }
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
    }

    private func deliver(_ answer: InProcessAnswer) {
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
