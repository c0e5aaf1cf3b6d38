import Courier
import CourierContract
import CourierContractModel
import CourierPrimitives
import Endpoints
import Foundation
import Testing

@Suite("OperationCall (courier call)")
struct OperationCallTests {
    @Test("the listing has one line per declared operation")
    func listing() {
        let lines = OperationCall.listing(SocialAPI.operations).split(separator: "\n")
        #expect(lines.count == SocialAPI.operations.count)
        #expect(lines.contains { $0.hasPrefix("posts.page") && $0.contains("[--size <int>]") })
    }

    @Test("arguments build the declared request; a default is left to the server")
    func builds() throws {
        let page = try OperationCall(
            PostsEndPoint.page(pageNumber: 1).operation, arguments: ["pageNumber": "2"])
        let request = try page.makeRequest(baseURL: URL(string: "http://api.test"))
        #expect(request.urlRequest.url?.absoluteString == "http://api.test/posts?pageNumber=2")
        let feed = try OperationCall(
            PostsEndPoint.feed(userId: "x").operation, arguments: ["userId": "u-000001"])
        #expect(feed.path == "/users/u-000001/feed")
        let login = try OperationCall(
            OnboardingEndPoint.login(email: "", password: "").operation,
            arguments: ["email": "a@b.c", "password": "secret1"])
        let body = try login.makeRequest(baseURL: URL(string: "http://api.test")).body
        guard case .data(let data) = body else {
            Issue.record("expected a JSON body")
            return
        }
        #expect(
            try JSONValue.parse(data) == .object(["email": .string("a@b.c"), "password": .string("secret1")]))
    }

    @Test("missing, malformed and unknown arguments are explained")
    func errors() {
        let page = PostsEndPoint.page(pageNumber: 1).operation
        let missing = #expect(throws: CourierError.self) { try OperationCall(page, arguments: [:]) }
        #expect(missing?.message == "--pageNumber is required")
        let notNumber = #expect(throws: CourierError.self) {
            try OperationCall(page, arguments: ["pageNumber": "one"])
        }
        #expect(notNumber?.message.contains("integer") == true)
        let extra = #expect(throws: CourierError.self) {
            try OperationCall(TweetsEndPoint.all.operation, arguments: ["x": "1"])
        }
        #expect(extra?.message.contains("--x") == true)
        let shortPassword = #expect(throws: CourierError.self) {
            try OperationCall(
                OnboardingEndPoint.login(email: "", password: "").operation,
                arguments: ["email": "a@b.c", "password": "1"])
        }
        #expect(shortPassword?.message == "--password shorter than 6 characters")
    }
}
