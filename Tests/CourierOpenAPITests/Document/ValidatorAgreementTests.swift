import CourierPrimitives
import Foundation
import TestSupport
import Testing

@testable import CourierOpenAPI

/// What openapi-spec-validator accepts, Courier reads; what it refuses, Courier refuses with the JSON
/// pointer of the problem. One document per construct in `Fixtures/OpenAPI/read`: `valid/` holds
/// documents both must read, `invalid/` documents both must refuse, each naming on its first line
/// (`# refused at: #/pointer`) where Courier must place a problem.
@Suite struct ValidatorAgreementTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/OpenAPI/read")

    /// The documents of `valid/` and `invalid/`, relative to their folder; a split document counts
    /// by its root file.
    static func documents(_ kind: String) -> [String] {
        let base = folder.appendingPathComponent(kind)
        // An unreadable folder gives no documents, which the count test fails.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        return names.flatMap { name -> [String] in
            if name.hasSuffix(".yaml") || name.hasSuffix(".json") { return [name] }
            return FileManager.default.fileExists(
                atPath: base.appendingPathComponent("\(name)/openapi.yaml").path)
                ? ["\(name)/openapi.yaml"] : []
        }.sorted()
    }

    @Test func everyConstructHasADocument() {
        #expect(Self.documents("valid").count >= 12)
        #expect(Self.documents("invalid").count >= 28)
    }

    @Test(arguments: documents("valid"))
    func readsWhatTheValidatorAccepts(file: String) throws {
        let document = try OpenAPIDocument.load(from: Self.folder.appendingPathComponent("valid/\(file)"))
        #expect(document.warnings.isEmpty, "\(document.warnings)")
    }

    @Test(arguments: documents("invalid"))
    func refusesWhatTheValidatorRefusesWithThePointer(file: String) throws {
        let url = Self.folder.appendingPathComponent("invalid/\(file)")
        let firstLine = try String(contentsOf: url, encoding: .utf8).prefix { $0 != "\n" }
        let expected = try #require(
            firstLine.hasPrefix("# refused at: ") ? String(firstLine.dropFirst(14)) : nil,
            "\(file) must name the pointer of its problem on its first line")
        let error = #expect(throws: OpenAPIDocumentError.self) { try OpenAPIDocument.load(from: url) }
        #expect(error?.code == .invalid)
        let places = error?.problems.map { "#" + $0.pointer.description } ?? []
        #expect(places.contains(expected), "\(expected) in \(error?.description ?? "no error")")
    }

    /// The validator's own verdict on the same files, so that the folders cannot drift from it.
    @Test func theValidatorAgreesWithTheFolders() async throws {
        let root = Self.folder.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let python = root.appendingPathComponent(".build/contract-venv/bin/python").path
        try #require(
            FileManager.default.isExecutableFile(atPath: python),
            "no \(python): run scripts/install-deps.sh test (make test does)")
        let files =
            Self.documents("valid").map { "valid/\($0)" } + Self.documents("invalid").map { "invalid/\($0)" }
        let verdicts = try await Self.validate(files, python: python)
        for file in files {
            let accepted = verdicts[file] == true
            #expect(accepted == file.hasPrefix("valid/"), "openapi-spec-validator on \(file): \(accepted)")
        }
    }

    /// Runs openapi-spec-validator once over every file: whether it accepts each.
    static func validate(_ files: [String], python: String) async throws -> [String: Bool] {
        let script = """
            import os, sys
            from openapi_spec_validator import validate
            from openapi_spec_validator.readers import read_from_filename
            os.chdir(sys.argv[1])
            for path in sys.argv[2:]:
                try:
                    spec, base = read_from_filename(path)
                    validate(spec, base_uri=base)
                    print("accepted", path)
                except Exception:
                    print("refused", path)
            """
        // TestSupport's Subprocess, not Foundation's Process: its run() overflows a heap buffer reading
        // /proc/self/fd (a crash in a loaded run, and an AddressSanitizer report).
        let result = try await Subprocess.run(python, ["-c", script, folder.path] + files, timeout: 300)
        let data = result.stdout
        var verdicts: [String: Bool] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2 { verdicts[parts[1]] = parts[0] == "accepted" }
        }
        return verdicts
    }
}
