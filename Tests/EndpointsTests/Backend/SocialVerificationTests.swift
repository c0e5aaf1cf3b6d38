import Courier
import CourierCurl
import CourierTesting
import CourierTool
import Endpoints
import Foundation
import SocialBackend
import Testing

/// The social backend holds to its own declaration under provider verification: every sample, in
/// order, and every case made from the declaration, writes included, signed in as a seeded user.
@Suite(.timeLimit(.minutes(3)))
struct SocialVerificationTests {
    @Test func theSocialBackendVerifiesClean() async throws {
        let report = try await Self.verifyFreshBackend(allowUnsafe: true)
        #expect(report.isClean, "\(report.summary)")
        #expect(report.cases.allSatisfy { $0.skipped == nil }, "\(report.summary)")
        #expect(Set(report.cases.map(\.operation)).count == SocialAPI.operations.count)
    }

    /// Without `allowUnsafe` nothing is written first, so every sample that runs must name what a
    /// freshly seeded backend already holds.
    @Test func aSafeOnlyRunVerifiesCleanAgainstAFreshBackend() async throws {
        let report = try await Self.verifyFreshBackend(allowUnsafe: false)
        #expect(report.isClean, "\(report.summary)")
        #expect(report.cases.contains { $0.operation == "upload.videoURL" && $0.skipped == nil })
    }

    /// Verifies a freshly seeded backend against its declaration, signed in as a seeded user.
    static func verifyFreshBackend(allowUnsafe: Bool) async throws -> VerificationReport {
        let backend = try SocialBackend(seedCount: 3)
        defer { backend.removeStorage() }
        return try await withMockServer(handlers: [backend]) { server in
            let transport = CurlTransport()
            let manager = NetworkManager(transport: transport, baseURL: server.baseURL)
            let session = try await manager.send(
                OnboardingEndPoint.login(email: "user1@example.com", password: SocialBackend.seedPassword)
            ).value
            let report = await ProviderVerification(
                samples: SocialAPI.samples, token: session.token, allowUnsafe: allowUnsafe
            ).run(against: server.baseURL, transport: transport)
            await transport.shutdown()
            return report
        }
    }
}
