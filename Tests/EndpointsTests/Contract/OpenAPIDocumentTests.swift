import Courier
import CourierContract
import CourierContractModel
import CourierPrimitives
import Endpoints
import Foundation
import Testing

@Suite("OpenAPI document and model schemas")
struct OpenAPIDocumentTests {
    @Test("the document lists every operation under its path and method")
    func listsEveryOperation() throws {
        guard case .object(let document) = SocialAPI.openAPI(),
            case .object(let paths) = document["paths"]
        else {
            Issue.record("not an object with paths")
            return
        }
        #expect(document["openapi"] == .string("3.1.0"))
        for operation in SocialAPI.operations {
            guard case .object(let item) = paths[operation.path],
                case .object(let entry) = item[operation.method.rawValue.lowercased()]
            else {
                Issue.record("\(operation.id) missing")
                continue
            }
            #expect(entry["operationId"] == .string(operation.id))
        }
        let text = String(decoding: try SocialAPI.openAPI().prettyData(), as: UTF8.self)
        #expect(text.contains("#/components/schemas/Post"))
    }

    static let date = Date(timeIntervalSince1970: 1_767_225_600)
    static let user = User(id: "u-000001", name: "Ada", email: "ada@example.com", createdAt: date)
    static let post = Post(
        id: "p-000001", authorId: "u-000001", authorName: "Ada", video: "clip.mp4",
        videoURL: URL(string: "http://127.0.0.1/storage/videos/clip.mp4"), description: "hi", likes: 0,
        comments: 0, pageNumber: 1, createdAt: date)

    static func check<T: Codable>(_ value: T) throws {
        let json = try JSONValue.parse(try JSONEncoder.courier.encode(value))
        let problem = Schema.of(T.self).violation(of: json, at: "")
        #expect(problem == nil, "\(T.self): \(String(describing: problem))")
    }

    @Test("every model encodes to JSON its schema accepts")
    func modelsConform() throws {
        try Self.check(Self.user)
        try Self.check(AuthSession(token: "t", refreshToken: "r", expiresAt: Self.date, user: Self.user))
        try Self.check(Self.post)
        try Self.check(PostsPage(items: [Self.post], pageNumber: 1, size: 5, nextPageNumber: 6))
        try Self.check(CursorPage(items: [Self.post], nextCursor: "c1"))
        try Self.check(KeysetPage(items: [Self.post], nextKey: "p-000001"))
        try Self.check(Tweet(id: "t-1", uid: "u-1", caption: "x", likes: 0, timestamp: Self.date))
        try Self.check(APIErrorBody(error: "bad_request", message: "m", parameter: "size"))
    }

    @Test("a schema rejects a value of the wrong shape")
    func schemaRejects() throws {
        let json = try JSONValue.parse(Data(#"{"id":"p-1","likes":"many"}"#.utf8))
        let problem = Schema.of(Post.self).violation(of: json, at: "body")
        #expect(problem?.path == "body.authorId")
        #expect(problem?.message == "required property 'authorId' is missing")
    }
}
