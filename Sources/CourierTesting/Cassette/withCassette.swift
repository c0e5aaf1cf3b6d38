import Courier
import Foundation

/// Opens the cassette `name`, runs `body` with a manager that answers from it (recording through
/// `transport` as `mode` allows), and saves what was recorded when `body` returns.
///
/// ```swift
/// try await withCassette("login", in: directory, mode: .once, recordingThrough: transport, baseURL: baseURL) { manager in
///     _ = try await manager.send(NotesAPI.list())
/// }
/// ```
/// - Parameters:
///   - name: the cassette's name.
///   - directory: where cassettes are kept.
///   - mode: when to record.
///   - matching: what a request must share with a recording.
///   - transport: the transport that reaches the real server when recording.
///   - baseURL: the manager's base URL.
///   - body: the test.
/// - Returns: what `body` returns.
/// - Throws: what `body` throws (a request with no recording, in mode `.none` or a recorded `.once`,
///   fails with `CourierError`), or the file system's error when the cassette cannot be read or saved.
public func withCassette<T: Sendable>(
    _ name: String, in directory: URL, mode: Cassette.Mode, matching: Cassette.Matching = .all,
    recordingThrough transport: any Transport, baseURL: URL? = nil, _ body: (NetworkManager) async throws -> T
) async throws -> T {
    let cassette = try Cassette(name, in: directory, mode: mode, matching: matching)
    let manager = NetworkManager(
        transport: CassetteTransport(cassette, recordingThrough: transport), baseURL: baseURL)
    let result = try await body(manager)
    try cassette.save()
    return result
}
