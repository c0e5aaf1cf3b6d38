import Courier
import Endpoints
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Contract ↔ endpoint enums")
struct ContractCoverageTests {
    static let base = URL(string: "http://127.0.0.1:9")!

    @Test("every operation is used by exactly one enum case")
    func everyOperationUsed() {
        let used = SocialAPI.samples.map(\.operationID)
        #expect(used.count == Set(used).count, "one sample per case, and no two cases share an operation")
        #expect(Set(used) == Set(Contract.operations.map(\.id)))
        #expect(Contract.operations.count == Set(Contract.operations.map(\.id)).count)
    }

    @Test("every enum case builds a request that its operation accepts", arguments: SocialAPI.samples.indices)
    func caseMatchesOperation(index: Int) throws {
        let endpoint = SocialAPI.samples[index]
        let request = try endpoint.makeHTTPRequest(baseURL: Self.base)
        let url = try #require(request.urlRequest.url)
        let match = ContractRouter.match(
            method: request.urlRequest.httpMethod ?? "GET", path: url.path(percentEncoded: true))
        guard case .operation(let operation, let pathParameters) = match else {
            Issue.record("\(endpoint.operationID): no operation matched \(url)")
            return
        }
        #expect(operation.id == endpoint.operationID)
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
        #expect(validated.operation.id == endpoint.operationID)
    }

    @Test("a request breaking the contract names the parameter")
    func violationNamesParameter() throws {
        let page = try #require(Contract.operation(id: "posts.page"))
        let error = #expect(throws: ContractViolation.self) {
            try page.validate(
                pathParameters: [:], query: [("pageNumber", "1"), ("size", "0")], header: { _ in nil },
                body: nil, hasBody: false)
        }
        #expect(error?.parameter == "size")
        #expect(error?.status == 400)
        let signup = try #require(Contract.operation(id: "onboarding.signup"))
        let bodyError = #expect(throws: ContractViolation.self) {
            try signup.validate(
                pathParameters: [:], query: [], header: { $0 == "Content-Type" ? "application/json" : nil },
                body: Data(#"{"email":"a@b.c","password":"123"}"#.utf8), hasBody: true)
        }
        #expect(bodyError?.parameter == "body.password")
    }

    @Test("unknown paths and wrong methods are told apart")
    func routing() {
        #expect(ContractRouter.match(method: "GET", path: "/nowhere") == .noRoute)
        guard case .methodNotAllowed(let allowed) = ContractRouter.match(method: "DELETE", path: "/posts")
        else {
            Issue.record("expected 405")
            return
        }
        #expect(Set(allowed) == ["GET", "POST"])
        guard
            case .operation(let op, let parameters) = ContractRouter.match(
                method: "GET", path: "/users/u-1/feed")
        else {
            Issue.record("expected a match")
            return
        }
        #expect(op.id == "posts.feed")
        #expect(parameters == ["userId": "u-1"])
    }
}
