import CourierPrimitives
import Foundation
import Testing

@testable import CourierOpenAPI

/// YAML as OpenAPI documents are written: block and flow styles, the core schema's scalars, anchors,
/// aliases and merge keys; bad text refused with its line and column.
@Suite struct YAMLTests {
    private func parse(_ text: String) throws -> JSONValue { try YAML.parse(Data(text.utf8)) }

    @Test func blockAndFlowCollections() throws {
        let value = try parse(
            """
            openapi: 3.1.0
            info: {title: Pets, version: "1"}
            tags:
              - name: pets
              - [a, b]
            """)
        #expect(value["openapi"] == .string("3.1.0"))
        #expect(value["info"]?["title"] == .string("Pets"))
        #expect(value["info"]?["version"] == .string("1"))
        #expect(
            value["tags"]
                == .array([.object(["name": .string("pets")]), .array([.string("a"), .string("b")])]))
    }

    @Test(
        "core schema scalars",
        arguments: [
            ("a: 12", JSONValue.int(12)), ("a: -7", .int(-7)), ("a: 0x1F", .int(31)), ("a: 0o17", .int(15)),
            ("a: 1.5", .double(1.5)), ("a: 1e3", .double(1000)), ("a: .5", .double(0.5)),
            ("a: true", .bool(true)), ("a: False", .bool(false)), ("a: null", .null), ("a: ~", .null),
            ("a:", .null),
            ("a: '12'", .string("12")), ("a: \"true\"", .string("true")), ("a: !!str 12", .string("12")),
            ("a: yes", .string("yes")), ("a: 3.0.3", .string("3.0.3")), ("a: 12:30", .string("12:30")),
            ("a: !!float 1", .double(1)), ("a: 99999999999999999999", .double(1e20)),
        ])
    func scalars(text: String, expected: JSONValue) throws {
        #expect(try parse(text)["a"] == expected, "\(text)")
    }

    @Test func statusKeysStayText() throws {
        let value = try parse("responses:\n  200:\n    description: ok\n  4XX: {description: bad}\n")
        #expect(value["responses"]?["200"]?["description"] == .string("ok"))
        #expect(value["responses"]?["4XX"] != nil)
    }

    @Test func anchorsAliasesAndMerge() throws {
        let value = try parse(
            """
            base: &base {type: string, maxLength: 5}
            copy: *base
            merged:
              <<: *base
              maxLength: 9
            """)
        #expect(value["copy"] == value["base"])
        #expect(value["merged"]?["type"] == .string("string"))
        #expect(value["merged"]?["maxLength"] == .int(9))
    }

    @Test func blockScalars() throws {
        let value = try parse("description: |\n  line one\n  line two\nfolded: >\n  a\n  b\n")
        #expect(value["description"] == .string("line one\nline two\n"))
        #expect(value["folded"] == .string("a b\n"))
    }

    @Test func duplicateKeyIsRefusedWithItsPlace() throws {
        let error = #expect(throws: YAMLError.self) { try parse("a: 1\nb:\n  c: 1\n  c: 2\n") }
        #expect(error?.line == 4)
        #expect(error?.column == 3)
        #expect(error?.reason.contains("duplicate key 'c'") == true)
    }

    @Test func malformedYAMLIsRefusedWithItsPlace() throws {
        let error = #expect(throws: YAMLError.self) { try parse("a: [1, 2\nb: 3\n") }
        #expect(error?.line == 2)
        #expect(error?.reason.contains("malformed YAML") == true)
        #expect(throws: YAMLError.self) { try parse("a: b: c\n") }
        #expect(throws: YAMLError.self) { try parse("a: *nowhere\n") }
        #expect(throws: YAMLError.self) { try parse("? [a, b]\n: c\n") }
        #expect(throws: YAMLError.self) { try parse("a: 1\n---\nb: 2\n") }
    }

    @Test func aliasBombIsRefusedByTheBound() throws {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let items = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            text += "a\(level): &a\(level) [\(items)]\n"
        }
        let started = ContinuousClock.now
        let error = #expect(throws: YAMLError.self) { try parse(text) }
        #expect(error?.reason.contains("alias bomb") == true)
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func smallBoundRefusesModestExpansion() throws {
        let text = "a: &a [1, 2, 3]\nb: [*a, *a, *a]\n"
        #expect(throws: YAMLError.self) { try YAML.parse(Data(text.utf8), maxNodes: 10) }
        #expect(try YAML.parse(Data(text.utf8), maxNodes: 100)["b"]?.intValue == nil)
    }

    @Test func deepNestingIsRefusedNotACrash() throws {
        for text in [String(repeating: "[", count: 100_000), String(repeating: "{a: ", count: 50_000)] {
            let error = #expect(throws: YAMLError.self) { try parse(text) }
            #expect(error?.reason.contains("nested more than") == true)
        }
        var block = ""
        for level in 0..<2_000 { block += String(repeating: " ", count: level) + "k:\n" }
        let error = #expect(throws: YAMLError.self) { try parse(block) }
        #expect(error?.reason.contains("nested more than") == true)
    }

    @Test func tabsAsIndentationAreRefusedWithTheirPlace() throws {
        let error = #expect(throws: YAMLError.self) { try parse("a:\n\tb: 1\n") }
        #expect(error?.line == 2)
        #expect(error?.reason.contains("tab") == true)
        #expect(try parse("a:\tb\n")["a"] == .string("b"))
    }

    @Test(
        "malformed text names its line and column",
        arguments: [
            ("a: \"open\n", 1, 4, "not closed"), ("a: 'x' y\n", 1, 8, "line break"),
            ("a:\n  - 1\n - 2\n", 3, 2, "indented wrongly"), ("a: \"\\q\"\n", 1, 5, "unknown escape"),
            ("a: !e!x 1\n", 1, 4, "undefined tag handle"), ("a: |x\n  t\n", 1, 5, "block scalar's header"),
            ("a: &x\nb: *y\n", 2, 4, "unknown alias"), ("a: b\n\u{07}\n", 2, 1, "control character"),
        ])
    func malformedTextSaysWhere(text: String, line: Int, column: Int, reason: String) throws {
        let error = #expect(throws: YAMLError.self) { try parse(text) }
        #expect(error?.line == line, "\(text)")
        #expect(error?.column == column, "\(text)")
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
    }

    /// Every prefix of a document that uses most of the syntax ends in a value or an error, never a
    /// crash or a hang.
    @Test func everyPrefixEndsInAValueOrAnError() throws {
        let text = """
            %TAG !e! tag:yaml.org,2002:
            --- !!map
            base: &base {type: "str\\u00e9", 'max': [1, 2, {k: v}]}
            list:
              - *base
              - ? complex
                : !e!str 12
              - |+
                kept

              - >-
                folded
                text
            merged: {<<: *base, extra: "a\\
              b"}
            ...
            """
        let scalars = Array(text.unicodeScalars)
        var errors = 0
        for end in 0...scalars.count {
            var prefix = ""
            prefix.unicodeScalars.append(contentsOf: scalars[..<end])
            do {
                _ = try YAML.parse(Data(prefix.utf8))
            } catch {
                errors += 1
                #expect(error.line >= 1 && error.column >= 1)
            }
        }
        #expect(errors > 0)
        let value = try YAML.parse(Data(text.utf8))
        #expect(value["merged"]?["extra"] == .string("ab"))
        guard case .array(let list)? = value["list"], list.count == 4 else {
            Issue.record("list: \(String(describing: value["list"]))")
            return
        }
        #expect(list[1] == .object(["complex": .string("12")]))
        #expect(list[2] == .string("kept\n\n"))
        #expect(list[3] == .string("folded text"))
    }
}
