import Courier
import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session's delegate: routes each callback to the transfer of its task.
// @unchecked: NSObject subclass; its only state is the `Locked` table.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let transfers = Locked<[ObjectIdentifier: Transfer]>([:])

    func register(_ transfer: Transfer, for task: URLSessionTask) {
        transfers.withLock { $0[ObjectIdentifier(task)] = transfer }
    }

    func unregister(_ task: URLSessionTask) {
        transfers.withLock { $0[ObjectIdentifier(task)] = nil }
    }

    private func transfer(for task: URLSessionTask) -> Transfer? {
        transfers.withLock { $0[ObjectIdentifier(task)] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let allow = transfer(for: dataTask)?.receive(response) ?? false
        completionHandler(allow ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer(for: dataTask)?.receive(data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        transfer(for: task)?.sent(totalBytesSent, of: totalBytesExpectedToSend)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        guard let transfer = transfer(for: task) else {
            completionHandler(nil)
            return
        }
        // Redirects are followed above the transport, one task per hop; a transfer being cancelled
        // must not answer at all.
        guard transfer.redirect() else { return }
        completionHandler(nil)
    }

    /// Ends every transfer with `error` (a shutdown). Runs on the delegate queue.
    func endAll(_ error: CourierError) {
        let all = transfers.withLock { table in
            defer { table.removeAll() }
            return Array(table.values)
        }
        for transfer in all {
            transfer.fail(error)
            transfer.complete(nil)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let transfer = transfers.withLock { $0.removeValue(forKey: ObjectIdentifier(task)) }
        transfer?.complete(error)
    }
}
