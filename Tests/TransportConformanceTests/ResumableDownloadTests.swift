import CourierInterceptors
import CourierPrimitives
import CourierTesting
import Foundation
import MockServer
import TestSupport
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `NetworkManager.download(_:to:)` resumes a cut download with `Range` and `If-Range`, over
/// both transports, and starts over when the resource changed or the server answers oddly.
@Suite struct ResumableDownloadTests {
    static let size: Int64 = 48 << 20

    @Test(arguments: TransportUnderTest.all)
    func aDownloadCutSeveralTimesResumesToTheSourceBytes(transport: TransportUnderTest) async throws {
        let directory = try TemporaryDirectory()
        let expected = try await Checksum.sha256(
            file: try Pattern.writeFile(length: Self.size, in: directory.url))
        let destination = directory.url.appendingPathComponent("resumed.bin")
        let origin = ResumableOrigin(size: Self.size, cuts: 4)
        let progress = ProgressLog()
        let response = try await origin.serve { base in
            try await transport.with { sut in
                let manager = NetworkManager(
                    transport: sut,
                    interceptors: [
                        RetryPolicy(maxAttempts: 6, baseDelay: .milliseconds(10), maxDelay: .milliseconds(10))
                    ])
                return try await manager.download(
                    URLRequest(url: base.appendingPathComponent("file"), timeoutInterval: 120),
                    to: destination,
                    progress: progress.record)
            }
        }
        #expect(response.value == destination)
        #expect(response.status == 206)
        #expect(response.attempts == 5)
        #expect(try await Checksum.sha256(file: destination) == expected)
        let seen = origin.requests
        #expect(seen.count == 5)
        #expect(seen.first?.range == nil, "the first request asks for everything")
        let offsets = seen.dropFirst().compactMap(\.rangeStart)
        #expect(offsets.count == 4, "every retry asks for the rest: \(seen)")
        #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0 < $1 }, "each resume starts further on")
        #expect(seen.dropFirst().allSatisfy { $0.ifRange == "\"v1\"" }, "If-Range carries the ETag")
        let downloads = progress.reports.filter { $0.direction == .download }
        #expect(downloads.last?.completed == Self.size)
        #expect(downloads.last?.total == Self.size)
        #expect(
            downloads.contains { $0.completed >= offsets.last ?? .max && $0.completed < Self.size },
            "progress after the last resume counts from its offset")
        #expect(
            !FileManager.default.fileExists(atPath: NetworkManager.resumeRecordURL(for: destination).path))
    }

    /// Without a validator a cut part can never be resumed; left behind it passed for the whole file.
    @Test(arguments: TransportUnderTest.all)
    func aCutDownloadWithoutAValidatorLeavesNoFile(transport: TransportUnderTest) async throws {
        try await expectNothingLeft(
            by: ResumableOrigin(size: 4 << 20, cuts: 1, validator: "none"), failingWith: .connectionLost,
            over: transport)
    }

    /// A whole 2xx body the validation refuses (an HTML page where video was expected) is not a part to
    /// resume: before, it stayed with its resume record, and every later run resumed it and was refused.
    @Test(arguments: TransportUnderTest.all)
    func aBodyTheValidationRefusesLeavesNoFileOrRecord(transport: TransportUnderTest) async throws {
        try await expectNothingLeft(
            by: ResumableOrigin(size: 64 << 10, cuts: 0),
            validation: Validation(acceptableContentTypes: ["video/*"]),
            failingWith: .unacceptableContentType,
            over: transport)
    }

    /// Downloads `/file` from `origin`, which must fail with `code`, and checks that neither the file
    /// nor its resume record is left behind.
    private func expectNothingLeft(
        by origin: ResumableOrigin, validation: Validation = .default, failingWith code: CourierError.Code,
        over transport: TransportUnderTest
    ) async throws {
        let directory = try TemporaryDirectory()
        let destination = directory.url.appendingPathComponent("failed.bin")
        try await origin.serve { base in
            try await transport.with { sut in
                let manager = NetworkManager(transport: sut, validation: validation)
                let request = URLRequest(url: base.appendingPathComponent("file"), timeoutInterval: 30)
                let error = await #expect(throws: CourierError.self) {
                    try await manager.download(request, to: destination)
                }
                #expect(error?.code == code)
                #expect(!FileManager.default.fileExists(atPath: destination.path), "the file is left")
                #expect(
                    !FileManager.default.fileExists(
                        atPath: NetworkManager.resumeRecordURL(for: destination).path),
                    "the resume record is left")
            }
        }
    }

    @Test(arguments: TransportUnderTest.all, ["etag", "last-modified"])
    func aLaterRunResumesWhatAnEarlierOneLeft(transport: TransportUnderTest, validator: String) async throws {
        let size: Int64 = 4 << 20
        let directory = try TemporaryDirectory()
        let expected = try await Checksum.sha256(file: try Pattern.writeFile(length: size, in: directory.url))
        let destination = directory.url.appendingPathComponent("later.bin")
        let origin = ResumableOrigin(size: size, cuts: 1, validator: validator)
        try await origin.serve { base in
            try await transport.with { sut in
                let manager = NetworkManager(transport: sut)
                let request = URLRequest(url: base.appendingPathComponent("file"), timeoutInterval: 30)
                let error = await #expect(throws: CourierError.self) {
                    try await manager.download(request, to: destination)
                }
                #expect(error?.code == .connectionLost)
                let kept = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int64
                #expect((kept ?? 0) > 0, "the cut download keeps its bytes")
                #expect(
                    FileManager.default.fileExists(
                        atPath: NetworkManager.resumeRecordURL(for: destination).path))
                let response = try await manager.download(request, to: destination)
                #expect(response.status == 206)
                #expect(origin.requests.last?.rangeStart == kept)
                #expect(origin.requests.last?.ifRange == origin.validatorValue)
            }
        }
        #expect(try await Checksum.sha256(file: destination) == expected)
    }

    /// An error status that the manager accepts (as `courier send` accepts every status) does
    /// not overwrite the part already downloaded: its body comes back in memory, and the next
    /// run resumes.
    @Test(arguments: TransportUnderTest.all)
    func anAcceptedErrorStatusKeepsThePartForTheNextRun(transport: TransportUnderTest) async throws {
        let size: Int64 = 4 << 20
        let directory = try TemporaryDirectory()
        let expected = try await Checksum.sha256(file: try Pattern.writeFile(length: size, in: directory.url))
        let destination = directory.url.appendingPathComponent("kept.bin")
        let origin = ResumableOrigin(size: size, cuts: 1)
        try await origin.serve { base in
            try await transport.with { sut in
                let manager = NetworkManager(
                    transport: sut, validation: Validation(acceptableStatusCodes: 100..<600))
                let request = URLRequest(url: base.appendingPathComponent("file"), timeoutInterval: 30)
                _ = await #expect(throws: CourierError.self) {
                    try await manager.download(request, to: destination)
                }
                let kept = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int64
                #expect((kept ?? 0) > 0)
                origin.failNextWith503()
                let busy = try await manager.download(request, to: destination)
                #expect(busy.status == 503)
                #expect(busy.body.data == Data("busy, try later".utf8))
                let after =
                    try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int64
                #expect(after == kept, "the downloaded part is still there")
                #expect(
                    FileManager.default.fileExists(
                        atPath: NetworkManager.resumeRecordURL(for: destination).path))
                let resumed = try await manager.download(request, to: destination)
                #expect(resumed.status == 206)
            }
        }
        #expect(try await Checksum.sha256(file: destination) == expected)
    }

    @Test(arguments: TransportUnderTest.all)
    func aChangedResourceStartsOver(transport: TransportUnderTest) async throws {
        let size: Int64 = 4 << 20
        let directory = try TemporaryDirectory()
        let destination = directory.url.appendingPathComponent("changed.bin")
        let origin = ResumableOrigin(size: size, cuts: 1)
        try await origin.serve { base in
            try await transport.with { sut in
                let manager = NetworkManager(transport: sut)
                let request = URLRequest(url: base.appendingPathComponent("file"), timeoutInterval: 30)
                await #expect(throws: CourierError.self) {
                    try await manager.download(request, to: destination)
                }
                origin.changeVersion()
                let response = try await manager.download(request, to: destination)
                #expect(response.status == 200, "If-Range no longer matches, so the server sends everything")
                #expect(origin.requests.last?.rangeStart != nil)
            }
        }
        let written = try Data(contentsOf: destination)
        // One Bool: on a mismatch Swift Testing would diff two 4 MiB buffers, which takes minutes.
        #expect(
            Bool(written == Pattern.bytes(offset: ResumableOrigin.changedShift, count: Int(size))),
            "\(written.count) bytes of \(size)")
    }

    @Test(arguments: TransportUnderTest.all)
    func aPartialAnswerForTheWrongRangeStartsOver(transport: TransportUnderTest) async throws {
        let size: Int64 = 4 << 20
        let directory = try TemporaryDirectory()
        let destination = directory.url.appendingPathComponent("misranged.bin")
        let origin = ResumableOrigin(size: size, cuts: 1, misrange: true)
        try await origin.serve { base in
            try await transport.with { sut in
                let manager = NetworkManager(
                    transport: sut,
                    interceptors: [
                        RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10), maxDelay: .milliseconds(10))
                    ])
                let request = URLRequest(url: base.appendingPathComponent("file"), timeoutInterval: 30)
                let response = try await manager.download(request, to: destination)
                #expect(response.status == 200)
            }
        }
        #expect(origin.requests.map { $0.rangeStart != nil } == [false, true, false])
        let written = try Data(contentsOf: destination)
        #expect(
            Bool(written == Pattern.bytes(offset: 0, count: Int(size))), "\(written.count) bytes of \(size)")
    }
}

/// A server for `/file`: `size` pattern bytes with a validator (`ETag: "v1"` or a
/// `Last-Modified`; `"none"` for neither), honouring `Range` and `If-Range`; its first `cuts` answers are cut at a
/// random offset. With `misrange`, a ranged request gets a 206 for the wrong bytes.
final class ResumableOrigin: Sendable {
    struct Seen: Sendable, CustomStringConvertible {
        var range: String?
        var ifRange: String?
        var rangeStart: Int64? {
            guard let range, range.hasPrefix("bytes="), range.hasSuffix("-") else { return nil }
            return Int64(range.dropFirst(6).dropLast())
        }
        var description: String { "Range \(range ?? "-") If-Range \(ifRange ?? "-")" }
    }

    private struct State {
        var cutsLeft: Int
        var version = 1
        var seen: [Seen] = []
        var unavailableNext = false
    }

    static let changedShift: Int64 = 7
    let size: Int64
    let validator: String
    let misrange: Bool
    private let state: Locked<State>

    init(size: Int64, cuts: Int, validator: String = "etag", misrange: Bool = false) {
        self.size = size
        self.validator = validator
        self.misrange = misrange
        state = Locked(State(cutsLeft: cuts))
    }

    var requests: [Seen] { state.withLock { $0.seen } }

    func changeVersion() { state.withLock { $0.version += 1 } }

    /// The next request is answered `503 Service Unavailable`.
    func failNextWith503() { state.withLock { $0.unavailableNext = true } }

    /// The validator the current version carries, as sent back in `If-Range`.
    var validatorValue: String {
        let version = state.withLock { $0.version }
        return validator == "etag" ? "\"v\(version)\"" : "Mon, 0\(version) Jun 2026 10:00:00 GMT"
    }

    func serve<T: Sendable>(_ body: (URL) async throws -> T) async throws -> T {
        let handler = ClosureHandler { [self] request in
            guard request.path == "/file" else { return nil }
            return self.respond(range: request.headers["Range"], ifRange: request.headers["If-Range"])
        }
        return try await withMockServer(handlers: [handler]) { server in
            try await body(try #require(URL(string: "http://127.0.0.1:\(server.port)")))
        }
    }

    private func respond(range: String?, ifRange: String?) -> ServerResponse {
        let validatorValue = self.validatorValue
        let unavailable = state.withLock { state in
            defer { state.unavailableNext = false }
            return state.unavailableNext
        }
        if unavailable { return .text("busy, try later", status: 503) }
        let (cut, version) = state.withLock { state -> (Bool, Int) in
            state.seen.append(Seen(range: range, ifRange: ifRange))
            let cut = state.cutsLeft > 0
            if cut { state.cutsLeft -= 1 }
            return (cut, state.version)
        }
        let shift: Int64 = version == 1 ? 0 : Self.changedShift
        var headers: ServerHeaders = ["Content-Type": "application/octet-stream"]
        if validator != "none" { headers[validator == "etag" ? "ETag" : "Last-Modified"] = validatorValue }
        let total = size
        var response = ServerResponse(
            headers: headers,
            body: .generated(length: total) { offset, count in
                Pattern.bytes(offset: offset + shift, count: count)
            })
        if misrange, range != nil {
            response.status = 206
            response.headers["Content-Range"] = "bytes 0-\(total - 1)/\(total)"
        }
        if cut {
            let start = Seen(range: range, ifRange: nil).rangeStart ?? 0
            response.fault = .truncatedBody
            response.truncateAfter = Int64.random(in: 1..<max(2, (total - start) * 3 / 4))
        }
        return response
    }
}

/// What `download` does with each answer to a resumed request, over each transport's streamed body.
@Suite struct ResumableFileDestinationTests {
    static let body = Pattern.bytes(offset: 0, count: 10_000)

    static let handler = ClosureHandler { request in
        switch request.path {
        case "/whole": return ServerResponse(body: .generated(length: 10_000, producer: Pattern.bytes))
        case "/busy": return .text("try later", status: 503)
        default: return nil
        }
    }

    private func send(
        _ path: String, range: String? = nil, offset: Int64, file: URL, transport: TransportUnderTest
    ) async throws -> TransportResponse {
        try await withMockServer(handlers: [Self.handler]) { server in
            try await transport.with { sut in
                var request = URLRequest(
                    url: try #require(URL(string: "http://127.0.0.1:\(server.port)\(path)")))
                if let range { request.setValue(range, forHTTPHeaderField: "Range") }
                var sent = TransportRequest(urlRequest: request)
                sent.options.delivery = .streamed
                var response = try await sut.send(sent)
                let exchanged = Response(response, sent: sent, attempts: 1)
                // What `download` does with each answer: a 206 after the kept bytes, another 2xx
                // over the whole file, anything else in memory.
                switch response.status {
                case 200..<300:
                    let count = try await DownloadFile.write(
                        exchanged, to: file, keeping: response.status == 206 ? offset : 0,
                        removingOnFailure: false)
                    response.body = .file(file, byteCount: count)
                default:
                    guard case .stream(let body) = response.body else { return response }
                    response.body = .data(try await body.collect(upTo: 1 << 20))
                }
                return response
            }
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aPartialAnswerIsWrittenAfterTheKeptBytes(transport: TransportUnderTest) async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("partial.bin")
        try (Self.body.prefix(4000) + Data(repeating: 0xEE, count: 500)).write(to: file)
        let response = try await send(
            "/whole", range: "bytes=4000-", offset: 4000, file: file, transport: transport)
        #expect(response.status == 206)
        #expect(response.body.file == file)
        #expect(response.body.byteCount == 10_000)
        #expect(try Data(contentsOf: file) == Self.body, "the bytes after the offset are replaced")
    }

    @Test(arguments: TransportUnderTest.all)
    func aWholeAnswerReplacesTheFile(transport: TransportUnderTest) async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("whole.bin")
        try Data(repeating: 0xEE, count: 20_000).write(to: file)
        let response = try await send("/whole", offset: 20_000, file: file, transport: transport)
        #expect(response.status == 200)
        #expect(response.body.file == file)
        #expect(response.body.byteCount == 10_000)
        #expect(try Data(contentsOf: file) == Self.body)
    }

    @Test(arguments: TransportUnderTest.all)
    func anErrorAnswerGoesToMemoryAndLeavesTheFile(transport: TransportUnderTest) async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("kept.bin")
        let kept = Data(repeating: 0xAB, count: 3000)
        try kept.write(to: file)
        let response = try await send(
            "/busy", range: "bytes=3000-", offset: 3000, file: file, transport: transport)
        #expect(response.status == 503)
        #expect(response.body.data == Data("try later".utf8))
        #expect(try Data(contentsOf: file) == kept)
    }

    @Test(arguments: TransportUnderTest.all)
    func aFileShorterThanTheOffsetIsRefused(transport: TransportUnderTest) async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("short.bin")
        try Data(repeating: 1, count: 100).write(to: file)
        let error = await #expect(throws: CourierError.self) {
            try await send("/whole", range: "bytes=4000-", offset: 4000, file: file, transport: transport)
        }
        #expect(error?.code == .fileWriteFailed)
        #expect(try Data(contentsOf: file).count == 100, "the file is left as it was")
    }
}
