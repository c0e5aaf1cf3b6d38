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
        do {
            process = try NginxProcess.start(nginx, config: config, in: directory, port: port, name: "nginx")
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
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
        NginxProcess.stop(process)
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
