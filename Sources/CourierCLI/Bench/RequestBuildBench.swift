import Courier
import CourierContract
import CourierPrimitives
import CourierTool
import Endpoints
import Foundation

/// `courier bench build`: the cost of turning a call into a `TransportRequest`, the same request
/// declared two ways: the typed path (`PostsEndPoint.page(pageNumber:size:)`, an `Endpoint<PostsPage>`)
/// and the classic path (an `APIConfigurable` enum with the same query), in alternating rounds inside
/// one process, timed by the thread's CPU clock.
enum RequestBuildBench {
    /// The same options as `bench decode`: alternating rounds, and the time per measurement.
    typealias Options = DecoderBench.Options

    static let spec = ArgumentSpec(
        command: "bench build",
        summary:
            "Builds the same request from an Endpoint<T> and from an APIConfigurable enum in alternating rounds; prints one JSON line per measurement and the typed/classic ratio.",
        options: [Options.rounds, Options.seconds]
    )

    /// The classic twin of `PostsEndPoint.page`: the same method, path and query.
    enum ClassicPosts: APIConfigurable {
        case page(pageNumber: Int, size: Int?)

        var method: HTTPMethod { .get }
        var path: EndpointPath { "/posts" }
        var parameters: any ParameterConvertible {
            switch self {
            case .page(let pageNumber, let size):
                URLQuery(["pageNumber": .int(pageNumber), "size": .int(size ?? 5)])
            }
        }
    }

    static func run(_ parsed: ParsedArguments) throws {
        let rounds = try parsed.int(Options.rounds) ?? 7
        let secondsText = parsed.value(Options.seconds) ?? "0.3"
        guard rounds > 0, let seconds = Double(secondsText), seconds > 0, seconds <= 3600 else {
            throw UsageError("--rounds must be positive and --seconds a number of seconds from 0 to 3600")
        }
        let base = URL(string: "http://127.0.0.1:8080")!
        func typed(_ page: Int) throws -> TransportRequest {
            try PostsEndPoint.page(pageNumber: page, size: 20).makeRequest(baseURL: base)
        }
        func classic(_ page: Int) throws -> TransportRequest {
            try ClassicPosts.page(pageNumber: page, size: 20).makeRequest(baseURL: base)
        }
        // Both must build the same request before their cost means anything.
        let (one, two) = (try typed(7), try classic(7))
        guard one.method == two.method, one.url.path == two.url.path,
            Set((one.url.query ?? "").split(separator: "&"))
                == Set((two.url.query ?? "").split(separator: "&"))
        else {
            throw UsageError("the typed and classic requests differ: \(one.url) and \(two.url)")
        }
        _ = try measure(typed, seconds: seconds / 3)
        _ = try measure(classic, seconds: seconds / 3)
        var ratios: [Double] = []
        for round in 0..<rounds {
            var perCall: [String: Double] = [:]
            let paths = [("typed", typed), ("classic", classic)]
            for (name, build) in round % 2 == 0 ? paths : paths.reversed() {
                let (iterations, cpu) = try measure(build, seconds: seconds)
                let micros = cpu / Double(iterations) * 1e6
                perCall[name] = micros
                print(
                    String(
                        format:
                            "{\"path\":\"%@\",\"round\":%d,\"iterations\":%d,\"cpu_seconds\":%.6f,\"us_per_call\":%.3f}",
                        name, round, iterations, cpu, micros))
            }
            ratios.append(perCall["typed"]! / perCall["classic"]!)
        }
        ratios.sort()
        print(
            String(
                format: "{\"typed_over_classic_median\":%.3f,\"min\":%.3f,\"max\":%.3f}",
                ratios[ratios.count / 2],
                ratios.first!, ratios.last!))
    }

    /// Runs `build` for about `seconds` of wall time; returns the iterations and this thread's CPU time.
    private static func measure(_ build: (Int) throws -> TransportRequest, seconds: Double) throws -> (
        Int, Double
    ) {
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = threadCPUTime()
        var iterations = 0
        var batch = 16
        while true {
            for page in 0..<batch { _ = try build(page % 1000 + 1) }
            iterations += batch
            if (clock.now - start).seconds >= seconds {
                return (iterations, max((threadCPUTime() - cpuStart).seconds, 1e-9))
            }
            batch = min(batch * 2, 65_536)
        }
    }
}
