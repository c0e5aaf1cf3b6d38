import CCurlShim
import CourierTesting
import Foundation
import Testing

@testable import CourierCurl

/// The reactor's dispatch of what a wait found: a socket libcurl closed after the wait looked at
/// it is not handed back to libcurl, whose next connection may have the same number.
@Suite struct CurlReactorTests {
    @Test func aSocketClosedAfterTheWaitIsNotDispatched() throws {
        try withConnectingTransfer { reactor, multi, easy, ready in
            ccurl_reactor_mark(reactor)
            // Taken out while in progress, the transfer's connection is closed (and unwatched).
            #expect(curl_multi_remove_handle(multi, easy) == CURLM_OK)
            #expect(
                ccurl_reactor_dispatch(reactor, multi, ready.sockets, ready.events, Int32(ready.count)) == 0)
        }
    }

    @Test func aSocketStillWatchedIsDispatched() throws {
        try withConnectingTransfer { reactor, multi, _, ready in
            ccurl_reactor_mark(reactor)
            #expect(
                ccurl_reactor_dispatch(reactor, multi, ready.sockets, ready.events, Int32(ready.count)) == 1)
        }
    }

    /// What one wait found.
    struct Ready {
        var sockets = [curl_socket_t](repeating: 0, count: 8)
        var events = [Int32](repeating: 0, count: 8)
        var count = 0
    }

    /// Starts a transfer on a multi handle with a reactor, to a loopback listener that never
    /// accepts (its backlog completes the connection, all a connecting transfer needs), waits
    /// until the reactor reports the transfer's socket, and runs `body` with what the wait found.
    private func withConnectingTransfer(
        _ body: (OpaquePointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer, Ready) throws -> Void
    ) throws {
        let (listener, port) = try LoopbackPort.listeningSocket()
        defer { close(listener) }
        _ = CurlGlobal.initialized
        let multi = try #require(curl_multi_init())
        let reactor = try #require(ccurl_reactor_create(multi))
        let easy = try #require(curl_easy_init())
        defer {
            _ = curl_multi_remove_handle(multi, easy)
            curl_easy_cleanup(easy)
            curl_multi_cleanup(multi)
            ccurl_reactor_free(reactor)
        }
        _ = ccurl_easy_setopt_string(easy, CURLOPT_URL, "http://127.0.0.1:\(port)/")
        // Straight to the listener, whatever proxy the environment names.
        _ = ccurl_easy_setopt_string(easy, CURLOPT_PROXY, "")
        #expect(curl_multi_add_handle(multi, easy) == CURLM_OK)
        var running: Int32 = 0
        var ready = Ready()
        // The connection is made (the listener's backlog accepts it) and the request written;
        // the socket is then watched for the answer, which never comes, or for writing.
        for _ in 0..<50 where ready.count == 0 {
            _ = curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running)
            ready.count = Int(
                ccurl_reactor_wait(reactor, 20, &ready.sockets, &ready.events, Int32(ready.sockets.count)))
        }
        try #require(ready.count == 1, "the reactor reported no socket")
        try body(reactor, multi, easy, ready)
    }
}
