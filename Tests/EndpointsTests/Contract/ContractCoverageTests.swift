import Courier
import CourierContract
import CourierContractModel
import Endpoints
import Foundation
import Testing

@testable import SocialBackend

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Declared operations ↔ requests and routing")
struct ContractCoverageTests {
    static let base = URL(string: "http://127.0.0.1:9")!

    @Test("every declared operation has one sample, and no two share an id or a route")
    func everyOperationUsed() {
        let ids = SocialAPI.samples.map(\.operation.id)
        #expect(ids.count == Set(ids).count, "one sample per operation")
        #expect(ids.count == 17, "the social API declares 17 operations")
        let routes = SocialAPI.operations.map { "\($0.method.rawValue) \($0.path)" }
        #expect(routes.count == Set(routes).count, "two operations share a method and path: \(routes)")
    }

    @Test("every enum case builds a request that its operation accepts", arguments: SocialAPI.samples.indices)
    func caseMatchesOperation(index: Int) throws {
        let endpoint = SocialAPI.samples[index]
        let request = try endpoint.makeRequest(baseURL: Self.base)
        let url = try #require(request.urlRequest.url)
        let match = SocialBackend.router.match(
            method: request.urlRequest.httpMethod ?? "GET", path: url.path(percentEncoded: true))
        guard case .route(let operation, let raw) = match else {
            Issue.record("\(endpoint.operation.id): no operation matched \(url)")
            return
        }
        #expect(operation.id == endpoint.operation.id)
        let pathParameters = raw.mapValues { $0.removingPercentEncoding ?? $0 }
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        let query = (components.queryItems ?? []).map { (name: $0.name, value: $0.value ?? "") }
        let headers = request.urlRequest.allHTTPHeaderFields ?? [:]
        var bodyData: Data?
        var hasBody = false
        switch request.body {
        case .empty: break
        case .data(let data):
            bodyData = data
            hasBody = true
        case .file, .stream: hasBody = true
        }
        let validated = try operation.validate(
            pathParameters: pathParameters, query: query,
            header: { name in headers.first { $0.key.lowercased() == name.lowercased() }?.value },
            body: bodyData, hasBody: hasBody)
        #expect(validated.operation.id == endpoint.operation.id)
    }

    @Test("a request breaking the contract names the parameter")
    func violationNamesParameter() throws {
        let page = PostsEndPoint.page(pageNumber: 1).operation
        let error = #expect(throws: ContractViolation.self) {
            try page.validate(
                pathParameters: [:], query: [("pageNumber", "1"), ("size", "0")], header: { _ in nil },
                body: nil, hasBody: false)
        }
        #expect(error?.parameter == "size")
        #expect(error?.status == 400)
        let signup = OnboardingEndPoint.signup(name: nil, email: "a@b.c", password: "secret").operation
        let bodyError = #expect(throws: ContractViolation.self) {
            try signup.validate(
                pathParameters: [:], query: [], header: { $0 == "Content-Type" ? "application/json" : nil },
                body: Data(#"{"email":"a@b.c","password":"123"}"#.utf8), hasBody: true)
        }
        #expect(bodyError?.parameter == "body.password")
    }

    @Test("unknown paths and wrong methods are told apart")
    func routing() {
        let router = SocialBackend.router
        guard case .noRoute = router.match(method: "GET", path: "/nowhere") else {
            Issue.record("expected no route")
            return
        }
        guard case .methodNotAllowed(let allowed) = router.match(method: "DELETE", path: "/posts") else {
            Issue.record("expected 405")
            return
        }
        #expect(Set(allowed) == ["GET", "POST"])
        guard case .route(let op, let parameters) = router.match(method: "GET", path: "/users/u-1/feed")
        else {
            Issue.record("expected a match")
            return
        }
        #expect(op.id == "posts.feed")
        #expect(parameters == ["userId": "u-1"])
    }
}
