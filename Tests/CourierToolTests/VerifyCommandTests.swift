import CourierTesting
import Foundation
import TestSupport
import Testing

/// `notes-tool verify`: exit statuses, the token from the environment, the summary and JUnit XML.
@Suite(.blocksItsThread, .timeLimit(.minutes(5)))
struct VerifyCommandTests {
    @Test func cleanExitsZeroAndADriftExitsOne() async throws {
        try await withMockServer(handlers: [DriftingProvider()]) { server in
            let clean = try await NotesTool.run(
                ["verify", "--base-url", server.baseURL.absoluteString, "--allow-unsafe"],
                environment: ["COURIER_TOKEN": DriftingProvider.token])
            #expect(clean.status == 0, "\(clean.stdoutText)\(clean.stderrText)")
            #expect(
                clean.stdoutText.contains(", 0 failed with 0 violations, 0 skipped"), "\(clean.stdoutText)")
        }
        try await withMockServer(handlers: [DriftingProvider(drift: .brokenFormat)]) { server in
            let drifted = try await NotesTool.run([
                "verify", "--base-url", server.baseURL.absoluteString, "--token", DriftingProvider.token,
            ])
            #expect(drifted.status == 1, "\(drifted.stdoutText)\(drifted.stderrText)")
            #expect(
                drifted.stdoutText.contains(
                    "FAIL  notes.note [sample] GET \(server.baseURL.absoluteString)/notes/n1"),
                "\(drifted.stdoutText)")
            #expect(
                drifted.stdoutText.contains("response.created: not a valid date-time [format]"),
                "\(drifted.stdoutText)")
        }
    }

    @Test(arguments: [
        (["verify"], "give --base-url or a baseURL in courier.json"),
        (["verify", "--base-url", "ftp://x"], "--base-url takes an absolute http or https URL"),
        (["verify", "--base-url", "http://127.0.0.1:9", "--bogus"], "unknown option '--bogus' for 'verify'"),
    ])
    func usageMistakesExit64(arguments: [String], message: String) async throws {
        let output = try await NotesTool.run(arguments)
        #expect(output.status == 64, "\(output.stderrText)")
        #expect(output.stderrText.contains(message), "\(output.stderrText)")
    }

    /// The JUnit file parses with Python's XML parser: one test case per case, a failure listing
    /// the violations of each broken case, skipped cases marked.
    @Test func junitXMLIsWrittenForCI() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("verify.xml")
        let output = try await withMockServer(handlers: [DriftingProvider(drift: .enumOutside)]) { server in
            try await NotesTool.run([
                "verify", "--base-url", server.baseURL.absoluteString, "--junit", file.path,
            ])
        }
        #expect(output.status == 1, "\(output.stdoutText)\(output.stderrText)")
        let script = """
            import sys, xml.etree.ElementTree as ET
            suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
            cases = suite.findall("testcase")
            failed = [c for c in cases if c.find("failure") is not None]
            skipped = [c for c in cases if c.find("skipped") is not None]
            assert int(suite.get("tests")) == len(cases), suite.attrib
            assert int(suite.get("failures")) == len(failed), suite.attrib
            assert int(suite.get("skipped")) == len(skipped), suite.attrib
            for c in failed:
                print(c.get("classname"), "|", c.get("name"), "|", c.find("failure").text.replace("\\n", " / "))
            print("skipped", len(skipped), "cases", len(cases))
            """
        let python = try #require(Subprocess.find("python3"), "python3 is needed to read the JUnit file")
        let parsed = try await Subprocess.run(python, ["-c", script, file.path])
        #expect(parsed.status == 0, "\(parsed.stderrText)")
        let lines = parsed.stdoutText.split(separator: "\n").map(String.init)
        #expect(
            lines.contains {
                $0.hasPrefix("notes.note | sample: GET ") && $0.contains("response.color")
                    && $0.contains("[enum]")
            },
            "\(parsed.stdoutText)")
        #expect(
            lines.contains {
                $0.hasPrefix("notes.list | absent optionals: GET ") && $0.contains("response[0].color")
            })
        let tally = try #require(lines.last)
        #expect(
            tally.hasPrefix("skipped ") && !tally.hasPrefix("skipped 0 "),
            "POST and DELETE are skipped: \(tally)")
    }
}
