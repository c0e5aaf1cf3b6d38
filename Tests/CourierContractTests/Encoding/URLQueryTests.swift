import Courier
import CourierContract
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct URLQueryTests {
    struct QueryCase: CustomTestStringConvertible, Sendable {
        let parameters: [String: ParameterValue]
        let arrays: ArrayEncoding
        let bools: BoolEncoding
        let expected: String
        var testDescription: String { expected }

        init(
            _ parameters: [String: ParameterValue], arrays: ArrayEncoding = .brackets,
            bools: BoolEncoding = .literal, _ expected: String
        ) {
            self.parameters = parameters
            self.arrays = arrays
            self.bools = bools
            self.expected = expected
        }
    }

    static let goldenCases: [QueryCase] = [
        QueryCase(["b": "2", "a": "1"], "a=1&b=2"),
        QueryCase(["tags": ["a", "b"]], "tags%5B%5D=a&tags%5B%5D=b"),
        QueryCase(["tags": ["a", "b"]], arrays: .repeatedKeys, "tags=a&tags=b"),
        QueryCase(["tags": ["a", "b"]], arrays: .indexed, "tags%5B0%5D=a&tags%5B1%5D=b"),
        QueryCase(["draft": true, "hidden": false], "draft=true&hidden=false"),
        QueryCase(["draft": true, "hidden": false], bools: .numeric, "draft=1&hidden=0"),
        QueryCase(["filter": ["user": "ann", "age": 30]], "filter%5Bage%5D=30&filter%5Buser%5D=ann"),
        QueryCase(["q": "café ☕"], "q=caf%C3%A9%20%E2%98%95"),
        QueryCase(["q": "a&b=c+d/e?f#g"], "q=a%26b%3Dc%2Bd%2Fe%3Ff%23g"),
        QueryCase(["q": "-._~"], "q=-._~"),
        QueryCase(["empty": ""], "empty="),
        QueryCase(["none": nil, "x": 1], "x=1"),
        QueryCase(["list": []], ""),
        QueryCase(["n": 1.5, "i": -3, "w": 2.0], "i=-3&n=1.5&w=2"),
        QueryCase(["clé": "v"], "cl%C3%A9=v"),
    ]

    @Test(arguments: goldenCases)
    func goldenEncoding(_ golden: QueryCase) throws {
        let query = URLQuery(golden.parameters, arrays: golden.arrays, bools: golden.bools)
        #expect(try query.percentEncodedQuery() == golden.expected)
    }

    @Test func nullAsEmptyValue() throws {
        let query = URLQuery(["none": nil], nulls: .emptyValue)
        #expect(try query.percentEncodedQuery() == "none=")
    }

    @Test func appendsToExistingQuery() throws {
        var request = TransportRequest(
            urlRequest: URLRequest(url: URL(string: "https://api.test/posts?x=1")!))
        try URLQuery(["page": 2]).encode(into: &request)
        #expect(request.urlRequest.url?.absoluteString == "https://api.test/posts?x=1&page=2")
    }

    @Test func emptyParametersLeaveURLAlone() throws {
        var request = TransportRequest(urlRequest: URLRequest(url: URL(string: "https://api.test/posts")!))
        try URLQuery([:]).encode(into: &request)
        #expect(request.urlRequest.url?.absoluteString == "https://api.test/posts")
    }

    struct Filter: Encodable, Sendable {
        var page: Int
        var tags: [String]
        var since: Date?
        var draft: Bool
    }

    @Test func encodesModels() throws {
        let filter = Filter(page: 1, tags: ["x y"], since: nil, draft: false)
        #expect(try URLQuery(filter).percentEncodedQuery() == "draft=false&page=1&tags%5B%5D=x%20y")
        let dated = Filter(page: 1, tags: [], since: Date(timeIntervalSince1970: 0), draft: true)
        #expect(
            try URLQuery(dated).percentEncodedQuery() == "draft=true&page=1&since=1970-01-01T00%3A00%3A00Z")
    }

    @Test func refusesModelsThatAreNotObjects() {
        #expect {
            try URLQuery(["a", "b"] as [String]).percentEncodedQuery()
        } throws: { error in
            let error = error as? CourierError
            return error?.code == .invalidParameters && error?.message.contains("an array") == true
        }
    }
}
