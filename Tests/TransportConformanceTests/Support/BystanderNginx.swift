import CourierTesting
import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// An nginx that stands for one already running on the machine, as a developer's system service
/// would be: a master process with a worker, its own prefix, configuration and pid file in a
/// temporary folder, on a free loopback port. Tests start it, run what starts nginx of its own, and
/// check that it is still running; nothing of the machine's is touched.
final class BystanderNginx {
    let directory: URL
    let port: Int
    private let process: Subprocess

    /// Starts it and waits until it accepts connections.
    /// - Throws: `ConformanceSetupError` with nginx's complaint.
    init(nginx: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bystander-nginx-\(UUID())")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("html"), withIntermediateDirectories: true)
        try Data("bystander\n".utf8).write(to: directory.appendingPathComponent("html/index.html"))
        port = try LoopbackPort.reserveAndClose()
        let d = directory.path
        let config = """
            worker_processes 1;
            pid \(d)/nginx.pid;
            error_log \(d)/error.log warn;
            events { worker_connections 16; }
            http {
                access_log off;
                client_body_temp_path \(d)/body; proxy_temp_path \(d)/proxy; fastcgi_temp_path \(d)/fastcgi;
                uwsgi_temp_path \(d)/uwsgi; scgi_temp_path \(d)/scgi;
                server { listen 127.0.0.1:\(port); root \(d)/html; }
            }
            """
        do {
            process = try NginxProcess.start(
                nginx, config: config, in: directory, port: port, name: "the bystander nginx")
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Whether its master still runs, still owns its pid file, and still answers on its port.
    var isServing: Bool {
        let recorded =
            (try? String(contentsOf: directory.appendingPathComponent("nginx.pid"), encoding: .utf8))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return process.isRunning && recorded == process.pid && LoopbackPort.isAccepting(port)
    }

    func stop() {
        NginxProcess.stop(process)
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
