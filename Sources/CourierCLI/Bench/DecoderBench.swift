import Courier
import CourierJSON
import CourierPrimitives
import CourierTool
import Endpoints
import Foundation

/// `courier bench decode`: Foundation's `JSONDecoder` against `CourierJSONDecoder` on the
/// benchmark's own payloads (the 500-post page and the 1 KiB body), both configured as Courier
/// configures them (ISO 8601 dates), in alternating rounds inside one process.
enum DecoderBench {
    enum Options {
        static let rounds = Option.value("--rounds", placeholder: "N", help: "alternating rounds (default 7)")
        static let seconds = Option.value(
            "--seconds", placeholder: "S", help: "time per measurement, in seconds (default 0.3)")
    }

    static let spec = ArgumentSpec(
        command: "bench decode",
        summary:
            "Decodes the 500-post page and the 1 KiB body with Foundation's JSONDecoder and CourierJSONDecoder in alternating rounds; prints one JSON line per measurement.",
        options: [Options.rounds, Options.seconds]
    )

    private struct Payload {
        var name: String
        var data: Data
        var foundation: () throws -> Void
        var courier: () throws -> Void
    }

    static func run(_ parsed: ParsedArguments) throws {
        let rounds = try parsed.int(Options.rounds) ?? 7
        let secondsText = parsed.value(Options.seconds) ?? "0.3"
        guard rounds > 0, let seconds = Double(secondsText), seconds > 0, seconds <= 3600 else {
            throw UsageError("--rounds must be positive and --seconds a number of seconds from 0 to 3600")
        }
        let foundation = JSONDecoder.courier
        let courier = CourierJSONDecoder.courier
        let page = try BenchFixtures.postsPage()
        let small = try BenchFixtures.smallBody()
        // Both decoders must agree before their speed means anything.
        guard try foundation.decode([Post].self, from: page) == courier.decode([Post].self, from: page),
            try foundation.decode(SmallPayload.self, from: small).sameValue(
                as: courier.decode(SmallPayload.self, from: small))
        else { throw UsageError("the decoders disagree on the benchmark payloads") }
        let payloads = [
            Payload(
                name: "500-post page", data: page,
                foundation: { _ = try foundation.decode([Post].self, from: page) },
                courier: { _ = try courier.decode([Post].self, from: page) }),
            Payload(
                name: "1 KiB body", data: small,
                foundation: { _ = try foundation.decode(SmallPayload.self, from: small) },
                courier: { _ = try courier.decode(SmallPayload.self, from: small) }),
        ]
        for payload in payloads {
            _ = try measure(payload.foundation, seconds: seconds / 3)
            _ = try measure(payload.courier, seconds: seconds / 3)
        }
        for round in 0..<rounds {
            for payload in payloads {
                let decoders = [
                    ("Foundation JSONDecoder", payload.foundation), ("CourierJSONDecoder", payload.courier),
                ]
                for (name, decode) in round % 2 == 0 ? decoders : decoders.reversed() {
                    let (iterations, elapsed, cpu) = try measure(decode, seconds: seconds)
                    let megabytes = Double(payload.data.count * iterations) / 1_000_000
                    print(
                        String(
                            format:
                                "{\"payload\":\"%@\",\"decoder\":\"%@\",\"round\":%d,\"bytes\":%d,\"iterations\":%d,\"seconds\":%.6f,\"cpu_seconds\":%.6f,\"mb_per_s\":%.2f}",
                            payload.name, name, round, payload.data.count, iterations, elapsed, cpu,
                            megabytes / cpu))
                }
            }
        }
    }

    /// Runs `decode` for about `seconds`; returns the iterations, the wall time they took, and
    /// the CPU time this thread spent on them. The rates use the CPU time: on a shared machine a
    /// measurement may lose the CPU to another process, and that is not the decoder's time.
    private static func measure(_ decode: () throws -> Void, seconds: Double) throws -> (Int, Double, Double)
    {
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = threadCPUTime()
        var iterations = 0
        var batch = 1
        while true {
            for _ in 0..<batch { try decode() }
            iterations += batch
            let elapsed = (clock.now - start).seconds
            if elapsed >= seconds {
                return (iterations, elapsed, max((threadCPUTime() - cpuStart).seconds, 1e-9))
            }
            batch = min(batch * 2, max(1, Int(Double(iterations) * (seconds - elapsed) / elapsed) + 1))
        }
    }
}

extension SmallPayload {
    /// Field-by-field equality (the bench model is not `Equatable`).
    fileprivate func sameValue(as other: SmallPayload) -> Bool {
        id == other.id && title == other.title && tags == other.tags
            && items.map { [String($0.id), $0.name, String($0.active)] }
                == other.items.map { [String($0.id), $0.name, String($0.active)] }
    }
}
