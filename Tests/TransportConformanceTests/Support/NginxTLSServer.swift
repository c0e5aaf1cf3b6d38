import Courier
import CourierTesting
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// nginx serving HTTPS with HTTP/2 on a free loopback port, with a self-signed
/// certificate made by the openssl command line, all inside a temporary directory.
final class NginxTLSServer {
    static let support = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    let directory: URL
    let port: Int
    private let process: Subprocess

    /// The CA bundle that trusts the server's certificate.
    var caBundle: URL { directory.appendingPathComponent("cert.pem") }

    /// Finds nginx on the usual paths.
    static var nginxPath: String? {
        ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx", "/usr/local/bin/nginx"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Generates the certificate, writes the config and starts nginx; returns once it accepts connections.
    /// - Throws: `ConformanceSetupError` with nginx's or openssl's complaint.
    init(nginx: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-nginx-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.run("/bin/sh", [Self.support.appendingPathComponent("make-cert.sh").path, directory.path])

        port = try LoopbackPort.reserveAndClose()
        let template = try String(
            contentsOf: Self.support.appendingPathComponent("nginx-tls.conf"), encoding: .utf8)
        let config = template.replacingOccurrences(of: "{{DIR}}", with: directory.path)
            .replacingOccurrences(of: "{{PORT}}", with: String(port))
        let configURL = directory.appendingPathComponent("nginx.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)

        process = try Subprocess(
            nginx,
            [
                "-p", directory.path, "-e", directory.appendingPathComponent("error.log").path, "-c",
                configURL.path, "-g", "daemon off;",
            ],
            output: .discard)
        // Bounded wait for the listening socket: 100 × 50 ms.
        for _ in 0..<100 {
            if LoopbackPort.isAccepting(port) { return }
            if !process.isRunning { break }
            usleep(50_000)
        }
        let log =
            (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        stop()
        throw ConformanceSetupError("nginx did not start on port \(port): \(log)")
    }

    /// The pin of the server's public key, made by the openssl command line.
    func publicKeyPin() throws -> PublicKeyPin {
        let pipeline =
            "openssl x509 -in '\(caBundle.path)' -pubkey -noout | openssl pkey -pubin -outform der"
            + " | openssl dgst -sha256 -binary | base64"
        let result = try Subprocess.run("/bin/sh", ["-c", pipeline], timeout: 60)
        guard result.status == 0 else { throw ConformanceSetupError("openssl failed: \(result.stderrText)") }
        return try PublicKeyPin(
            "sha256//" + result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func url(_ path: String) -> URL? { URL(string: "https://127.0.0.1:\(port)\(path)") }

    func stop() {
        // With `master_process off` there are no workers to orphan.
        process.send(SIGTERM)
        if process.wait(timeout: 5) == nil {
            process.send(SIGKILL)
            process.wait()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }

    private static func run(_ executable: String, _ arguments: [String]) throws {
        let result = try Subprocess.run(executable, arguments, timeout: 60)
        guard result.status == 0 else {
            throw ConformanceSetupError(
                "\(executable) \(arguments.joined(separator: " ")) failed: \(result.stderrText)")
        }
    }
}
