import Courier
import CourierContract
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct FormBodyTests {
    static let cases: [([String: ParameterValue], String)] = [
        (["name": "Ann Lee"], "name=Ann+Lee"),
        (["q": "a+b~c*d"], "q=a%2Bb%7Ec*d"),
        (["tags": ["x", "y"]], "tags%5B%5D=x&tags%5B%5D=y"),
        (["é": "ü"], "%C3%A9=%C3%BC"),
        (["empty": "", "ok": true], "empty=&ok=true"),
        (["user": ["name": "a&b"]], "user%5Bname%5D=a%26b"),
    ]

    @Test(arguments: cases)
    func goldenEncoding(parameters: [String: ParameterValue], expected: String) throws {
        #expect(try FormBody(parameters).encodedString() == expected)
    }

    @Test func setsBodyAndContentType() throws {
        var request = TransportRequest(urlRequest: URLRequest(url: URL(string: "https://api.test/login")!))
        try FormBody(["user": "ann"]).encode(into: &request)
        #expect(
            request.urlRequest.value(forHTTPHeaderField: "Content-Type")
                == "application/x-www-form-urlencoded")
        guard case .data(let data) = request.body else {
            Issue.record("expected an in-memory body")
            return
        }
        #expect(String(decoding: data, as: UTF8.self) == "user=ann")
    }

    @Test func refusesSecondBody() throws {
        var request = TransportRequest(urlRequest: URLRequest(url: URL(string: "https://api.test/x")!))
        try JSONBody(["a": 1] as ParameterValue).encode(into: &request)
        #expect(throws: CourierError.self) { try FormBody(["b": 2]).encode(into: &request) }
    }
}

struct JSONBodyTests {
    struct Post: Codable, Sendable {
        var title: String
        var createdAt: Date
        var url: URL
    }

    @Test func encodesWithSortedKeysAndISODates() throws {
        var request = TransportRequest(urlRequest: URLRequest(url: URL(string: "https://api.test/posts")!))
        let post = Post(
            title: "Hi ☕", createdAt: Date(timeIntervalSince1970: 86_400),
            url: URL(string: "https://x.test/a/b")!)
        try JSONBody(post).encode(into: &request)
        #expect(request.urlRequest.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(
            String(decoding: request.body.dataValue, as: UTF8.self)
                == #"{"createdAt":"1970-01-02T00:00:00Z","title":"Hi ☕","url":"https://x.test/a/b"}"#)
    }

    @Test func encodesParameterValues() throws {
        let value: ParameterValue = ["b": [1, 2.5, true, nil], "a": "x"]
        #expect(
            String(decoding: try JSONBody(value).encodedData(), as: UTF8.self)
                == #"{"a":"x","b":[1,2.5,true,null]}"#)
    }

    struct Failing: Encodable, Sendable {
        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(1, .init(codingPath: [], debugDescription: "nope"))
        }
    }

    @Test func encodingFailureIsInvalidParameters() {
        #expect {
            try JSONBody(Failing()).encodedData()
        } throws: { ($0 as? CourierError)?.code == .invalidParameters }
    }
}

struct CombinedParametersTests {
    @Test func queryPlusBody() throws {
        var request = TransportRequest(urlRequest: URLRequest(url: URL(string: "https://api.test/posts")!))
        try CombinedParameters(URLQuery(["draft": true]), JSONBody(["t": "x"] as ParameterValue))
            .encode(into: &request)
        #expect(request.urlRequest.url?.query == "draft=true")
        #expect(String(decoding: request.body.dataValue, as: UTF8.self) == #"{"t":"x"}"#)
    }
}

extension RequestBody {
    var dataValue: Data {
        if case .data(let data) = self { return data }
        return Data()
    }
}
