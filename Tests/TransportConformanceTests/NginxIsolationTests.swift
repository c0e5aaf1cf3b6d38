import CourierTesting
import Foundation
import TestSupport
import Testing

/// What starts nginx for the tests and scripts starts its own (its own configuration, pid file and a
/// free loopback port) and stops only that one: an nginx already running on the machine is still
/// running afterwards. `.serialized`: each case runs nginx, and two cores are enough for one.
@Suite(.blocksItsThread, .serialized) struct NginxIsolationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theTLSTestsNginxLeavesARunningNginxAlone() throws {
        let nginx = try #require(NginxTLSServer.nginxPath, "nginx is not installed (apt-get install nginx)")
        let bystander = try BystanderNginx(nginx: nginx)
        defer { bystander.stop() }
        for _ in 0..<2 {
            let server = try NginxTLSServer(nginx: nginx)
            #expect(server.port != bystander.port)
            server.stop()
        }
        #expect(bystander.isServing, "the nginx that was running before is not serving any more")
    }

    /// `make test` runs `scripts/install-deps.sh test`, which must not stop, start or reload a service
    /// on a developer's machine. Run here with every package reported installed, and with `service`,
    /// `systemctl`, `nginx` and their kind replaced by programs that only write down that they ran.
    @Test func installDepsTouchesNoServiceAndNoNginx() throws {
        let sandbox = FileManager.default.temporaryDirectory.appendingPathComponent("install-deps-\(UUID())")
        defer { try? FileManager.default.removeItem(at: sandbox) }
        let bin = sandbox.appendingPathComponent("bin")
        let log = sandbox.appendingPathComponent("calls.log")
        let venvBin = sandbox.appendingPathComponent(".build/contract-venv/bin")
        for folder in [bin, venvBin, sandbox.appendingPathComponent("scripts")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let script = sandbox.appendingPathComponent("scripts/install-deps.sh")
        try FileManager.default.copyItem(
            at: Self.root.appendingPathComponent("scripts/install-deps.sh"), to: script)
        func program(_ url: URL, _ body: String) throws {
            try Data("#!/bin/sh\n\(body)\n".utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
        // Every package is installed, and the virtualenv has its tools.
        try program(bin.appendingPathComponent("dpkg"), "exit 0")
        try program(venvBin.appendingPathComponent("python"), "exit 0")
        for name in [
            "service", "systemctl", "invoke-rc.d", "nginx", "pkill", "killall", "apt-get", "sudo", "pip",
        ] {
            try program(bin.appendingPathComponent(name), "echo \"\(name) $*\" >> '\(log.path)'\nexit 0")
        }
        let result = try Subprocess.run(
            "/bin/bash", [script.path, "test"],
            environment: ["PATH": "\(bin.path):/usr/local/bin:/usr/bin:/bin", "HOME": sandbox.path],
            timeout: 60)
        #expect(result.status == 0, "\(result.stderrText)")
        let calls = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(calls.isEmpty, "install-deps.sh ran: \(calls)")
    }
}
