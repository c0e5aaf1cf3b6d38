import CourierTool
import Foundation
import MockServer
import Synchronization

/// `courier bench cut-server`: serves one file at `/file` with an `ETag`, honouring `Range` and
/// `If-Range`, and cuts its first answers at random offsets, so that a resumed download can be
/// measured from outside (`scripts/measure-resume.sh`). The file is streamed from disk.
enum CutServer {
    enum Options {
        static let file = Option.value(
            "--file", placeholder: "PATH", help: "the file served at /file (required)", required: true)
        static let cuts = Option.value(
            "--cuts", placeholder: "N", help: "how many answers are cut part way (default 5)")
        static let port = Option.value(
            "--port", placeholder: "PORT", help: "the port (default 0: any free one)")
    }

    static let spec = ArgumentSpec(
        command: "bench cut-server",
        summary:
            "Serves --file at /file, cutting its first --cuts answers at random offsets; prints 'listening on http://HOST:PORT' and runs until SIGINT or SIGTERM.",
        options: [Options.file, Options.cuts, Options.port]
    )

    static func run(_ parsed: ParsedArguments) async throws {
        guard let path = parsed.value(Options.file), FileManager.default.isReadableFile(atPath: path) else {
            throw UsageError("--file: cannot read '\(parsed.value(Options.file) ?? "")'")
        }
        let url = URL(fileURLWithPath: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let etag = "\"\(String(size, radix: 16))-\(String(Int64(modified), radix: 16))\""
        let cuts = try parsed.int(Options.cuts) ?? 5
        guard cuts >= 0 else { throw UsageError("--cuts must not be negative") }
        let left = CutsLeft(cuts)
        let handler = ClosureHandler { request in
            guard request.path == "/file" else { return nil }
            var response = ServerResponse(
                headers: ["ETag": etag, "Content-Type": "application/octet-stream"], body: .file(url))
            if left.take() {
                // Clamped: `bytes=-9223372036854775808-` would overflow `size - start`.
                let asked =
                    request.headers["Range"].flatMap { Int64($0.dropFirst("bytes=".count).dropLast()) } ?? 0
                let start = min(max(asked, 0), size)
                response.fault = .truncatedBody
                response.truncateAfter = Int64.random(in: 1..<max(2, size - start))
            }
            return response
        }
        var configuration = MockServerConfiguration()
        configuration.port = try parsed.int(Options.port) ?? 0
        let server = MockServer(configuration: configuration, handlers: [handler])
        try server.start()
        FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(server.port)\n".utf8))
        await waitForTerminationSignal()
        server.shutdown()
    }
}

/// How many answers are still to be cut.
private final class CutsLeft: Sendable {
    private let count: Mutex<Int>

    init(_ count: Int) { self.count = Mutex(count) }

    /// Whether this answer is cut (and one fewer is left).
    func take() -> Bool {
        count.withLock { count in
            guard count > 0 else { return false }
            count -= 1
            return true
        }
    }
}
