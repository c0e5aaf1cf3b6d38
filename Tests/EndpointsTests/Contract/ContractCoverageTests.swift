import Courier
import CourierContract
import CourierContractModel
import Endpoints
import Foundation
import MockServer
import MockServerContract
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

    /// The server request a transport request arrives as, with a token when the operation needs one.
    static func serverRequest(_ request: TransportRequest, token: Bool) throws -> ServerRequest {
        let components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
        var target = components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        var headers = ServerHeaders()
        for field in request.headers { headers.add(name: field.name, value: field.value) }
        if token { headers.add(name: "Authorization", value: "Bearer t") }
        switch request.body {
        case .data(let data):
            return ServerRequest(
                method: request.method.rawValue, target: target, headers: headers, body: data)
        case .file(let url):
            return ServerRequest(
                method: request.method.rawValue, target: target, headers: headers, bodyFile: url)
        case .stream(let stream):
            return ServerRequest(
                method: request.method.rawValue, target: target, headers: headers, body: try stream.collect())
        case .empty:
            return ServerRequest(method: request.method.rawValue, target: target, headers: headers)
        }
    }

    /// The contract with every operation answered by its id.
    static let contract = SocialBackend.contract.answeringEveryOperation { call in
        var values = call.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        values.insert(call.operation.id, at: 0)
        return ServerResponse(status: 299, body: .data(Data(values.joined(separator: " ").utf8)))
    }

    static func text(_ response: ServerResponse?) -> String {
        guard case .data(let data)? = response?.body else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    @Test("every enum case builds a request that its operation accepts", arguments: SocialAPI.samples.indices)
    func caseMatchesOperation(index: Int) throws {
        let endpoint = SocialAPI.samples[index]
        let request = try Self.serverRequest(
            try endpoint.makeRequest(baseURL: Self.base), token: endpoint.operation.requiresAuth)
        let answer = Self.contract.handle(request)
        #expect(answer?.status == 299, "\(endpoint.operation.id): \(Self.text(answer))")
        #expect(Self.text(answer).split(separator: " ").first.map(String.init) == endpoint.operation.id)
    }

    @Test("a request breaking the contract names the parameter")
    func violationNamesParameter() throws {
        let refused = try #require(
            Self.contract.gate(ServerRequest(method: "GET", target: "/posts?pageNumber=1&size=0")))
        #expect(refused.status == 400)
        let error = try JSONDecoder().decode(
            APIErrorBody.self, from: Data(Self.text(SocialBackend.refusal(refused)).utf8))
        #expect(error.parameter == "size")
        let signup = ServerRequest(
            method: "POST", target: "/auth/signup", headers: ["Content-Type": "application/json"],
            body: Data(#"{"email":"a@b.c","password":"123"}"#.utf8))
        let bodyRefused = try #require(Self.contract.gate(signup))
        let bodyError = try JSONDecoder().decode(
            APIErrorBody.self, from: Data(Self.text(SocialBackend.refusal(bodyRefused)).utf8))
        #expect(bodyError.parameter == "body.password")
    }

    @Test("unknown paths and wrong methods are told apart")
    func routing() {
        #expect(Self.contract.handle(ServerRequest(method: "GET", target: "/nowhere")) == nil)
        let wrong = Self.contract.handle(ServerRequest(method: "DELETE", target: "/posts"))
        #expect(wrong?.status == 405)
        #expect(wrong?.headers["Allow"] == "GET, POST")
        var feed = ServerRequest(method: "GET", target: "/users/u-1/feed")
        feed.headers.add(name: "Authorization", value: "Bearer t")
        #expect(Self.text(Self.contract.handle(feed)) == "posts.feed userId=u-1")
    }
}
