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
/// It routes and validates every request by the contract's own OpenAPI document, as the mock of
/// any document does (a request that breaks it gets a 400 naming the parameter), authenticates with bearer tokens (401 without a valid one,
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

    /// Answers a request, or returns `nil` when the path is not the backend's. The contract's
    /// operations are routed and checked by the mock of the API's own document (`ContractHandler`);
    /// a request that passes is authenticated and performed here.
    func respond(to request: ServerRequest) -> ServerResponse? {
        let social = SocialRequest(request)
        if request.path.hasPrefix("/storage/") { return serveStorage(social)?.server }
        if servesProviderStates, request.path == Self.providerStatesPath {
            return setProviderState(social).server
        }
        let performed = Locked(false)
        let contract = Self.contract.answeringEveryOperation { [self] call in
            performed.withLock { $0 = true }
            return answer(call).server
        }
        guard let response = contract.handle(request) else { return nil }
        return performed.withLock { $0 } ? response : Self.refusal(response)
    }

    /// The contract served: the document of `SocialAPI`, built once.
    static let contract = ContractHandler(operations: SocialAPI.operations)

    /// Authenticates and performs a call that passed the contract's checks.
    func answer(_ call: ContractHandler.Call) -> SocialResponse {
        let request = SocialRequest(call.request)
        do {
            let userId = call.operation.requiresAuth ? try authenticate(request) : nil
            return try perform(call, userId: userId, request: request)
        } catch let violation as ContractViolation {
            return .violation(violation)
        } catch let failure as SocialFailure {
            return failure.response
        } catch {
            return .error(500, "internal", "\(error)")
        }
    }

    /// The contract's refusal as the API's error body (`APIErrorBody`), naming the parameter at fault
    /// (`size`, `body.password`, `Authorization`); `Allow` lists HEAD wherever GET is.
    static func refusal(_ response: ServerResponse) -> ServerResponse {
        guard case .data(let data) = response.body,
            let body = try? JSONValue.parse(data)  // allowed: a body that is not JSON is passed on
        else { return response }
        let message = body["message"]?.stringValue ?? "refused"
        var refused: SocialResponse
        if response.status == 405 {
            var allowed = (response.headers["Allow"] ?? "").components(separatedBy: ", ")
            if allowed.contains("GET"), !allowed.contains("HEAD") { allowed.append("HEAD") }
            refused = .error(405, "method_not_allowed", message)
            refused.headers.append(("Allow", allowed.joined(separator: ", ")))
        } else if [400, 401, 415, 422].contains(response.status) {
            var parameter: String?
            if case .array(let problems) = body["problems"] ?? .null, let first = problems.first {
                switch first["in"]?.stringValue {
                case "security": parameter = "Authorization"
                case "body":
                    parameter =
                        first["name"]?.stringValue
                        ?? first["path"]?.stringValue.map { "body" + $0.dropFirst() } ?? "body"
                default: parameter = first["name"]?.stringValue
                }
            }
            refused = .error(
                response.status, response.status == 401 ? "unauthorized" : "bad_request", message,
                parameter: parameter)
            for challenge in response.headers.values(for: "WWW-Authenticate") {
                refused.headers.append(("WWW-Authenticate", challenge))
            }
        } else {
            return response
        }
        return refused.server
    }

    func perform(_ call: ContractHandler.Call, userId: String?, request: SocialRequest) throws
        -> SocialResponse
    {
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

extension ContractHandler.Call {
    /// A parameter's value as text.
    func string(_ name: String) -> String? { values[name] }

    /// A parameter's value as an integer (already checked to parse).
    func int(_ name: String) -> Int? { values[name].flatMap { Int($0) } }

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
