import Courier
import CourierConfiguration
import CourierCurl
import CourierTool
import Endpoints
import Foundation
import Synchronization

/// Drives one workload through `NetworkManager` and one transport, and measures it.
struct BenchRunner {
    var parsed: ParsedArguments

    struct Result {
        var requests: Int
        var errors: Int
        var seconds: Double
        var latencies: [Double]
        var bytes: Int64
        /// CPU time of the whole process while the requests ran (`getrusage`), in seconds.
        var userSeconds: Double
        var systemSeconds: Double

        var json: String {
            let sorted = latencies.sorted()
            func percentile(_ p: Double) -> Double {
                sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000
            }
            let mib = Double(bytes) / 1_048_576
            return String(
                format:
                    "{\"requests\":%d,\"errors\":%d,\"seconds\":%.6f,\"rps\":%.1f,\"p50_ms\":%.3f,\"p99_ms\":%.3f,\"bytes\":%lld,\"mib_per_s\":%.1f,\"user_s\":%.6f,\"sys_s\":%.6f}",
                requests, errors, seconds, Double(requests) / seconds, percentile(0.5), percentile(0.99),
                bytes, mib / seconds, userSeconds, systemSeconds)
        }
    }

    func run() async throws -> Result {
        guard let urlText = parsed.value(BenchCommand.RunOptions.url), let url = URL(string: urlText),
            let scheme = url.scheme,
            let host = url.host
        else { throw UsageError("bench run needs --url with an absolute URL") }
        let base = URL(string: "\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")")
        let requests = try parsed.int(BenchCommand.RunOptions.requests) ?? 1000
        let concurrency = max(1, min(requests, try parsed.int(BenchCommand.RunOptions.concurrency) ?? 1))
        guard requests > 0 else { throw UsageError("--requests must be positive") }
        guard let kindName = parsed.value(BenchCommand.RunOptions.client),
            let kind = try? TransportKind(name: kindName)
        else {
            throw UsageError("--client takes curl or urlsession")
        }
        var configuration = Configuration()
        configuration.transport = kind
        configuration.baseURL = base
        configuration.retry.maxAttempts = 1
        configuration.maxResponseBytes = 64 << 20
        configuration.timeouts.idle = .seconds(600)
        configuration.timeouts.total = .seconds(600)
        var curl = CurlTransport.Configuration()
        if let connections = try parsed.int(BenchCommand.RunOptions.connections) {
            curl.maxConnectionsPerHost = connections
        }
        let transport: any Transport =
            kind == .curl
            ? CurlTransport(configuration: curl)
            : try configuration.makeTransport(choosingFrom: ClientSettings.transports)
        let manager = NetworkManager(configuration: configuration, transport: transport)

        let workload = parsed.value(BenchCommand.RunOptions.workload) ?? "small"
        let path = url.path.isEmpty ? "/" : url.path
        let operation: @Sendable () async throws -> Int64
        switch workload {
        case "small":
            operation = {
                Int64(
                    try await manager.send(BenchEndPoint.small(path: path), as: SmallPayload.self).body.data
                        .count)
            }
        case "small-raw":
            // The same request with validation but no decoding: what the JSON decoder costs.
            operation = { Int64(try await manager.sendRaw(BenchEndPoint.small(path: path)).body.data.count) }
        case "small-typed":
            // The same request declared as an `Endpoint<SmallPayload>`: the path users are pointed to.
            try BenchAPI.requireSmallPath(path)
            operation = { Int64(try await manager.send(BenchAPI.small()).body.data.count) }
        case "small-typed-raw":
            try BenchAPI.requireSmallPath(path)
            operation = { Int64(try await manager.sendRaw(BenchAPI.small()).body.data.count) }
        case "transport":
            // The transport alone, without NetworkManager: what the manager's layer costs.
            let request = TransportRequest(url: url)
            operation = { Int64(try await transport.send(request).body.data.count) }
        case "decode":
            operation = {
                Int64(
                    try await manager.send(BenchEndPoint.posts(path: path), as: [Post].self).body.data.count)
            }
        case "download":
            operation = {
                let file = FileManager.default.temporaryDirectory
                    .appendingPathComponent("courier-bench-\(UUID().uuidString).bin")
                defer {
                    try? FileManager.default.removeItem(at: file)
                    try? FileManager.default.removeItem(at: NetworkManager.resumeRecordURL(for: file))
                }
                let response = try await manager.download(BenchEndPoint.download(path: path), to: file)
                if case .file(_, let count) = response.body { return count }
                return 0
            }
        case "stream":
            // A consumer that sleeps 2 ms after every 512 KiB (at most about 250 MB/s): slower than
            // loopback, so the transport must hold the transfer back for memory to stay flat.
            operation = {
                let response = try await manager.stream(BenchEndPoint.download(path: path))
                var received: Int64 = 0
                var sinceSleep = 0
                for try await chunk in response.value {
                    received += Int64(chunk.count)
                    sinceSleep += chunk.count
                    if sinceSleep >= 512 << 10 {
                        sinceSleep = 0
                        try await Task.sleep(for: .milliseconds(2))
                    }
                }
                return received
            }
        case "upload":
            guard let file = parsed.value(BenchCommand.RunOptions.file) else {
                throw UsageError("the upload workload needs --file")
            }
            let fileURL = URL(fileURLWithPath: file)
            let size = Int64(
                (try FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0)
            operation = {
                _ = try await manager.sendRaw(BenchEndPoint.upload(path: path, file: fileURL))
                return size
            }
        default:
            throw UsageError(
                "--workload takes small, small-raw, transport, decode, download, stream or upload")
        }
        // `default` writes no preference, as an app does unless it asks. A task that prefers the curl
        // loop's executor (`loop`) is resumed on that thread: no thread switch per request.
        let executor: (any TaskExecutor)?
        switch parsed.value(BenchCommand.RunOptions.executor) ?? "default" {
        case "default": executor = nil
        case "loop": executor = (transport as? CurlTransport)?.executor
        case "global": executor = globalConcurrentExecutor
        default: throw UsageError("--executor takes default, loop or global")
        }
        let result = try await measure(
            requests: requests, concurrency: concurrency, executor: executor, operation)
        await transport.shutdown()
        return result
    }

    private func measure(
        requests: Int, concurrency: Int, executor: (any TaskExecutor)?,
        _ operation: @escaping @Sendable () async throws -> Int64
    ) async throws -> Result {
        let next = TicketCounter()
        let clock = ContinuousClock()
        let cpuBefore = ProcessCPU.now()
        let start = clock.now
        let parts = try await withThrowingTaskGroup(of: ([Double], Int, Int64).self) { group in
            for _ in 0..<concurrency {
                group.addTask(executorPreference: executor) {
                    var latencies: [Double] = []
                    var errors = 0
                    var bytes: Int64 = 0
                    while next.take() < requests {
                        let began = clock.now
                        do {
                            bytes += try await operation()
                        } catch {
                            errors += 1
                            if errors == 1 { standardError("courier bench: \(error)\n") }
                        }
                        latencies.append((clock.now - began).seconds)
                    }
                    return (latencies, errors, bytes)
                }
            }
            var all: [([Double], Int, Int64)] = []
            for try await part in group { all.append(part) }
            return all
        }
        let seconds = (clock.now - start).seconds
        let cpu = ProcessCPU.now()
        return Result(
            requests: requests, errors: parts.reduce(0) { $0 + $1.1 }, seconds: seconds,
            latencies: parts.flatMap(\.0), bytes: parts.reduce(0) { $0 + $1.2 },
            userSeconds: cpu.user - cpuBefore.user, systemSeconds: cpu.system - cpuBefore.system)
    }
}

/// The process's user and system CPU time so far, in seconds (`getrusage(RUSAGE_SELF)`).
enum ProcessCPU {
    static func now() -> (user: Double, system: Double) {
        var usage = rusage()
        #if canImport(Glibc)
            let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
            let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return (0, 0) }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return (seconds(usage.ru_utime), seconds(usage.ru_stime))
    }
}

extension Duration {
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}

/// Hands out 0, 1, 2, … to concurrent workers.
final class TicketCounter: Sendable {
    private let value = Atomic<Int>(0)

    func take() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
}
