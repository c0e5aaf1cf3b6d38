import CourierPrimitives

/// Injects failures into a share of requests, reproducibly from a seed: 5xx, 429 with `Retry-After`,
/// connection faults, and truncated bodies of otherwise normal responses. Never used for admin routes.
final class ChaosInjector: Sendable {
    /// What chaos did to a request.
    enum Outcome: CaseIterable, Sendable {
        case internalError, badGateway, serviceUnavailable, tooManyRequests
        case connectionReset, emptyResponse, truncatedBody
    }

    let rate: Double
    private let generator: Locked<SplitMix64>

    init(rate: Double, seed: UInt64) {
        self.rate = min(1, max(0, rate))
        self.generator = Locked(SplitMix64(seed: seed))
    }

    /// The outcome for the next request, or nil to leave it alone.
    func draw() -> Outcome? {
        guard rate > 0 else { return nil }
        return generator.withLock { generator in
            let roll = Double(generator.next() >> 11) / Double(1 << 53)
            guard roll < rate else { return nil }
            return Outcome.allCases[Int(generator.next() % UInt64(Outcome.allCases.count))]
        }
    }

    /// Applies chaos: a synthetic response, or `next()`'s response with a fault; nil when chaos passes.
    func apply(next: () -> ServerResponse) -> ServerResponse? {
        guard let outcome = draw() else { return nil }
        var response: ServerResponse
        switch outcome {
        case .internalError:
            response = .text("chaos: injected internal error\n", status: 500)
        case .badGateway:
            response = .text("chaos: injected bad gateway\n", status: 502)
        case .serviceUnavailable:
            response = .text("chaos: injected unavailability\n", status: 503)
            response.headers["Retry-After"] = "1"
        case .tooManyRequests:
            response = .text("chaos: injected rate limit\n", status: 429)
            response.headers["Retry-After"] = "1"
        case .connectionReset:
            response = ServerResponse(fault: .connectionResetByPeer)
        case .emptyResponse:
            response = ServerResponse(fault: .emptyResponse)
        case .truncatedBody:
            response = next()
            response.fault = .truncatedBody
        }
        response.headers["X-Courier-Chaos"] = "\(outcome)"
        return response
    }
}

/// A small, fast, seedable generator (SplitMix64), so chaos runs are reproducible.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
