import Courier
import CourierTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The record next to an unfinished download, as a later run reads it.
struct ResumeRecordTests {
    @Test func aLaterRunResumesFromTheRecordNextToTheFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-record-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("letters.txt")
        try Data("abc".utf8).write(to: file)
        let record = directory.appendingPathComponent("letters.txt.courier-resume")
        try Data(#"{"url":"https://api.test/letters","etag":"\"L1\""}"#.utf8).write(to: record)

        let stub = StubTransport()
        stub.on(
            .get, "/letters", .data(Data("def".utf8), status: 206, headers: ["Content-Range": "bytes 3-5/6"]))
        let response = try await makeManager(stub).download(
            URLRequest(url: try #require(URL(string: "https://api.test/letters"))), to: file)

        #expect(response.status == 206)
        #expect(response.body.file == file)
        #expect(response.body.byteCount == 6)
        #expect(try String(contentsOf: file, encoding: .utf8) == "abcdef")
        #expect(stub.requests.first?.headers["Range"] == "bytes=3-")
        #expect(stub.requests.first?.headers["If-Range"] == "\"L1\"")
        #expect(
            !FileManager.default.fileExists(atPath: record.path),
            "the record goes once the download completes")
    }

    @Test func aRecordForAnotherURLIsIgnored() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-record-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("letters.txt")
        try Data("xyz".utf8).write(to: file)
        try Data(#"{"url":"https://elsewhere.test/letters","etag":"\"L1\""}"#.utf8).write(
            to: directory.appendingPathComponent("letters.txt.courier-resume"))

        let stub = StubTransport()
        stub.on(.get, "/letters", .text("abcdef"))
        _ = try await makeManager(stub).download(
            URLRequest(url: try #require(URL(string: "https://api.test/letters"))), to: file)

        #expect(try String(contentsOf: file, encoding: .utf8) == "abcdef")
        #expect(stub.requests.first?.headers["Range"] == nil)
    }
}
