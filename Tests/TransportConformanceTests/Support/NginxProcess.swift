import CourierTesting
import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// nginx in the foreground with a prefix, configuration and error log of its own: what the TLS
/// server and the bystander both start and stop.
enum NginxProcess {
    /// Writes `config` to `directory`/nginx.conf, starts `nginx` on it and waits (100 × 50 ms) for
    /// `port` to accept.
    /// - Throws: `ConformanceSetupError` with nginx's error log, after stopping it, when it did
    ///   not start listening.
    static func start(_ nginx: String, config: String, in directory: URL, port: Int, name: String) throws
        -> Subprocess
    {
        let configURL = directory.appendingPathComponent("nginx.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        let process = try Subprocess(
            nginx,
            [
                "-p", directory.path, "-e", directory.appendingPathComponent("error.log").path, "-c",
                configURL.path, "-g", "daemon off;",
            ],
            output: .discard)
        for _ in 0..<100 {
            if LoopbackPort.isAccepting(port) { return process }
            if !process.isRunning { break }
            usleep(50_000)
        }
        let log =
            (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        stop(process)
        throw ConformanceSetupError("\(name) did not start on port \(port): \(log)")
    }

    /// Stops `process`: SIGTERM, then SIGKILL if it has not ended within 5 s.
    static func stop(_ process: Subprocess) {
        process.send(SIGTERM)
        if process.wait(timeout: 5) == nil {
            process.send(SIGKILL)
            process.wait()
        }
    }
}
