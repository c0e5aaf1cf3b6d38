import CourierTool
import Endpoints
import SocialBackend

extension CourierTool {
    /// `courier`: the tool over the bundled social API, its stateful backend for `mock`, and the
    /// demo's own commands.
    static let courier = CourierTool(
        name: "courier",
        summary:
            "courier: declare HTTP APIs as enums, call them over libcurl or URLSession, test them against a mock server.",
        title: SocialAPI.title, documentDescription: SocialAPI.description, samples: SocialAPI.samples,
        declarationProblems: SocialAPI.groups.flatMap { $0.sampleProblems },
        backend: MockBackend(
            options: [SocialOptions.seedData, SocialOptions.providerStates],
            description: "the social backend",
            make: { parsed in
                let seedCount = try parsed.int(SocialOptions.seedData) ?? 0
                guard (0...SeedLimit.posts).contains(seedCount) else { throw UsageError(SeedLimit.message) }
                let providerStates = parsed.has(SocialOptions.providerStates)
                let backend = try SocialBackend(seedCount: seedCount, providerStates: providerStates)
                // Uploaded videos live in a temporary folder of the backend's.
                return MockBackend.Served(
                    handlers: [backend], setUpPaths: providerStates ? [SocialBackend.providerStatesPath] : [],
                    stop: { backend.removeStorage() })
            }),
        commands: [
            DemoCommand.self, MockCommand.self, SendCommand.self, CallCommand.self, OpenAPICommand.self,
            VerifyCommand.self, ContractCommand.self, GenerateCommand.self, BenchCommand.self,
        ])
}

/// The options `courier mock` takes for the social backend.
enum SocialOptions {
    static let seedData = Option.value(
        "--seed-data", placeholder: "N", help: "fill the social backend with N sample users, posts, tweets")
    static let providerStates = Option.flag(
        "--provider-states",
        help:
            "serve POST /_pact/provider-states, which sets the social backend up for a pact's provider states (sample data exists, a user is signed in)"
    )
}

/// `--seed-data` writes a 32 KiB sample video per post before the server listens: 10,000 posts are
/// 320 MiB, and an unbounded count filled the disk.
enum SeedLimit {
    static let posts = 10_000
    static let message = "--seed-data takes 0 to 10000 posts"
}
