import Courier
import CourierContract
import CourierContractModel
import CourierPrimitives
import Endpoints
import Foundation
import MockServer
import MockServerContract

/// The stateful social backend: the `Contract` implemented in memory, with video files on disk.
///
/// It routes and validates every request by the contract (a request that breaks it gets a
/// 400 naming the parameter), authenticates with bearer tokens (401 without a valid one,
/// 403 for another user's data), and stores uploads by moving the server's spooled body
/// file, never reading it into memory. Plug it into a `MockServer` as a handler; paths
/// outside the contract and `/storage/` are left to the next handler.
///
/// ```swift
/// let backend = try SocialBackend(seedCount: 20)
/// let server = MockServer(handlers: [backend])
/// ```
public final class SocialBackend: Sendable {
    /// Where videos and profile images are kept.
    public let storageDirectory: URL
    /// How long a bearer token stays valid.
    public let tokenLifetime: TimeInterval
    let state = Locked(SocialState())
    let ownsStorage: Bool
    /// Whether `POST /_pact/provider-states` is served.
    let servesProviderStates: Bool

    /// Creates a backend, optionally with deterministic sample data.
    ///
    /// - Parameters:
    ///   - seedCount: how many sample posts and tweets to create (see `seedData(count:)`).
    ///   - storageDirectory: where files go; `nil` makes a fresh temporary folder, removed by `removeStorage()`.
    ///   - tokenLifetime: how long tokens last, in seconds.
    ///   - providerStates: whether to serve `POST /_pact/provider-states`, which sets the backend up for
    ///     the provider states of a pact being verified (see `providerStatesPath`).
    /// - Throws: when the storage folder or the sample videos cannot be written.
    public init(
        seedCount: Int = 0, storageDirectory: URL? = nil, tokenLifetime: TimeInterval = 3600,
        providerStates: Bool = false
    ) throws {
        let directory =
            storageDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "courier-social-\(UUID().uuidString)")
        self.storageDirectory = directory
        self.ownsStorage = storageDirectory == nil
        self.tokenLifetime = tokenLifetime
        self.servesProviderStates = providerStates
        for folder in ["videos", "avatars"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        if seedCount > 0 { try seedData(count: seedCount) }
    }

    /// Deletes the storage folder if the backend created it.
    public func removeStorage() {
        guard ownsStorage else { return }
        try? FileManager.default.removeItem(at: storageDirectory)
    }

    /// How many posts, tweets, users and stored videos there are.
    public var counts: (users: Int, posts: Int, tweets: Int, videos: Int) {
        state.withLock { ($0.users.count, $0.posts.count, $0.tweets.count, $0.videos.count) }
    }

    /// Answers a request, or returns `nil` when the path is not the backend's.
    func respond(to request: SocialRequest) -> SocialResponse? {
        if request.path.hasPrefix("/storage/") { return serveStorage(request) }
        if servesProviderStates, request.path == Self.providerStatesPath { return setProviderState(request) }
        switch Self.router.match(method: request.method, path: request.path) {
        case .noRoute:
            return nil
        case .methodNotAllowed(var allowed):
            if allowed.contains("GET"), !allowed.contains("HEAD") { allowed.append("HEAD") }
            var response = SocialResponse.error(
                405, "method_not_allowed",
                "\(request.method) is not allowed here; use \(allowed.joined(separator: ", "))")
            response.headers.append(("Allow", allowed.joined(separator: ", ")))
            return response
        case .route(let operation, let raw):
            // A path variable that does not decode to a value is no route of the contract.
            var pathParameters: [String: String] = [:]
            for (name, value) in raw {
                guard let decoded = value.removingPercentEncoding, !decoded.isEmpty else { return nil }
                pathParameters[name] = decoded
            }
            do {
                let userId = operation.requiresAuth ? try authenticate(request) : nil
                // A JSON body spilled to disk (over 1 MiB) is read back to be validated; a file
                // upload stays on disk.
                let inMemoryBody: Data? =
                    request.bodyFile == nil
                    ? request.body
                    : operation.takesJSON ? request.bodyFile.flatMap { try? Data(contentsOf: $0) } : nil
                let validated = try operation.validate(
                    pathParameters: pathParameters, query: request.query, header: request.header,
                    body: inMemoryBody, hasBody: request.hasBody)
                return try perform(validated, userId: userId, request: request)
            } catch let violation as ContractViolation {
                return .violation(violation)
            } catch let failure as SocialFailure {
                return failure.response
            } catch {
                return .error(500, "internal", "\(error)")
            }
        }
    }

    /// The contract's operations by method and path template; built once.
    static let router = PathRouter(
        SocialAPI.operations.map { (method: $0.method.rawValue, template: $0.path, value: $0) })

    func perform(_ call: ValidatedRequest, userId: String?, request: SocialRequest) throws -> SocialResponse {
        let origin = request.origin
        let me = userId ?? ""
        switch call.operation.id {
        case "onboarding.login": return try login(call.decode(Credentials.self), origin: origin)
        case "onboarding.signup": return try signup(call.decode(SignupForm.self), origin: origin)
        case "onboarding.refresh": return try refresh(call.decode(RefreshForm.self), origin: origin)
        case "onboarding.me": return try currentUser(me, origin: origin, cookie: request.header("Cookie"))
        case "posts.page": return page(call, origin: origin)
        case "posts.feed": return try feed(call, userId: me, origin: origin)
        case "posts.latest": return latest(call, origin: origin)
        case "posts.post": return try post(id: call.string("postId") ?? "", origin: origin)
        case "posts.like": return try like(id: call.string("postId") ?? "", userId: me, origin: origin)
        case "tweets.upload": return try uploadTweet(call.decode(NewTweet.self), userId: me)
        case "tweets.all": return tweets(of: nil)
        case "tweets.byUser": return try tweetsOfUser(call.string("userId") ?? "")
        case "tweets.user": return try user(id: call.string("userId") ?? "", origin: origin)
        case "upload.video":
            return try storeVideo(name: call.string("name") ?? "", userId: me, request: request)
        case "upload.videoURL": return try videoLink(name: call.string("name") ?? "", origin: origin)
        case "upload.publish":
            return try publish(
                call.decode(NewPost.self), key: call.string("Idempotency-Key") ?? "", userId: me,
                origin: origin)
        case "upload.profileImage": return try storeAvatar(userId: me, request: request, origin: origin)
        default:
            return .error(501, "not_implemented", "\(call.operation.id) has no implementation")
        }
    }
}

extension ValidatedRequest {
    /// The JSON body decoded as `T` (already validated against the schema).
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard let json else { throw ContractViolation(parameter: "body", reason: "is required") }
        do {
            return try JSONDecoder.courier.decode(T.self, from: try JSONEncoder().encode(json))
        } catch {
            throw ContractViolation(parameter: "body", reason: "does not decode: \(error)")
        }
    }
}
