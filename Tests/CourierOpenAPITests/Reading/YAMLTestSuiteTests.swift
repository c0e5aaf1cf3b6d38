import CourierPrimitives
import Foundation
import Testing

@testable import CourierOpenAPI

/// The YAML reader against the public yaml-test-suite, with libyaml's reading of each case as the
/// reference (`Tests/Fixtures/YAML`, made by its `make-reference.py`): the same documents, the same
/// nodes, tags and scalar texts, and an error where libyaml refuses the text.
@Suite struct YAMLTestSuiteTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var name: String
        var yaml: String
        var libyaml: JSONValue
        var testDescription: String { "\(id) \(name)" }
    }

    static let cases: [Case] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/YAML/yaml-test-suite.json")
        guard let data = try? Data(contentsOf: url), case .array(let items)? = try? JSONValue.parse(data)
        else {
            return []
        }
        return items.compactMap { item in
            guard let id = item["id"]?.stringValue, let yaml = item["yaml"]?.stringValue,
                let reference = item["libyaml"]
            else { return nil }
            return Case(id: id, name: item["name"]?.stringValue ?? "", yaml: yaml, libyaml: reference)
        }
    }()

    /// Cases where this reader and libyaml read the text differently, and why; each is checked to still
    /// differ, so one that starts to agree is taken off the list.
    static let knownDifferences: [String: String] = [:]

    /// The reader's documents in the reference's canonical form, or "error" and why.
    static func canonical(_ yaml: String) -> (value: JSONValue, error: String?) {
        do {
            var parser = try YAMLParser(Data(yaml.utf8))
            var anchors: [String: JSONValue] = [:]
            var documents: [JSONValue] = []
            for document in try parser.documents() {
                guard let value = canonical(document, anchors: &anchors) else {
                    return (.string("error"), "unknown alias")
                }
                documents.append(value)
            }
            return (.array(documents), nil)
        } catch {
            return (.string("error"), error.description)
        }
    }

    private static func canonical(_ node: YAMLNode, anchors: inout [String: JSONValue]) -> JSONValue? {
        let tag = node.tag.map(JSONValue.string) ?? .null
        let value: JSONValue
        switch node.kind {
        case .alias(let name):
            return anchors[name]
        case .scalar(let text, let plain):
            value = .array([.string("="), tag, .string(plain ? "plain" : "quoted"), .string(text)])
        case .sequence(let items):
            var values: [JSONValue] = []
            for item in items {
                guard let item = canonical(item, anchors: &anchors) else { return nil }
                values.append(item)
            }
            value = .array([.string("["), tag, .array(values)])
        case .mapping(let pairs):
            var values: [JSONValue] = []
            for (key, member) in pairs {
                guard let key = canonical(key, anchors: &anchors),
                    let member = canonical(member, anchors: &anchors)
                else { return nil }
                values.append(.array([key, member]))
            }
            value = .array([.string("{"), tag, .array(values)])
        }
        if let anchor = node.anchor { anchors[anchor] = value }
        return value
    }

    /// A canonical tree in short: `'text'` quoted or plain `text`, `[a, b]`, `{k: v}`, tags as `<tag>`.
    static func render(_ value: JSONValue) -> String {
        guard case .array(let parts) = value else { return value.stringValue ?? "?" }
        guard case .string(let kind)? = parts.first, parts.count >= 3 else {
            return parts.map(render).joined(separator: " --- ")
        }
        let tag = parts[1].stringValue.map { "<\($0)> " } ?? ""
        switch kind {
        case "=":
            let text = parts[3].stringValue ?? ""
            return tag + (parts[2] == .string("plain") ? text : "'\(text)'")
        case "[":
            guard case .array(let items) = parts[2] else { return "?" }
            return tag + "[" + items.map(render).joined(separator: ", ") + "]"
        default:
            guard case .array(let pairs) = parts[2] else { return "?" }
            let members = pairs.map { pair -> String in
                guard case .array(let both) = pair, both.count == 2 else { return "?" }
                return render(both[0]) + ": " + render(both[1])
            }
            return tag + "{" + members.joined(separator: ", ") + "}"
        }
    }

    @Test func theSuiteIsThere() {
        #expect(Self.cases.count > 300)
    }

    @Test(arguments: cases)
    func readsLikeLibyaml(_ suiteCase: Case) {
        let (mine, error) = Self.canonical(suiteCase.yaml)
        if let why = Self.knownDifferences[suiteCase.id] {
            #expect(mine != suiteCase.libyaml, "now agrees with libyaml; drop it from the list (\(why))")
        } else {
            #expect(
                mine == suiteCase.libyaml,
                "ours: \(Self.render(mine)) \(error ?? ""); libyaml: \(Self.render(suiteCase.libyaml))")
        }
    }
}
