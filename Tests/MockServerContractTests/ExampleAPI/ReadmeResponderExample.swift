import Courier
import CourierCurl
import Foundation
import MockServer
import MockServerContract

// One operation answered by a responder, another by a WireMock stub; the declaration checks both.
func readNotes() async throws -> (found: Note, missingStatus: Int?, missingBody: String) {
    let notes = ContractHandler(NotesAPI.self)
        .responding(to: NotesAPI.note(id: "").operation) { call in
            // `call.values` holds the parameters that arrived, as text, by name.
            let note = Note(
                id: call.values["id"] ?? "", text: "Buy milk", pinned: false, color: .yellow, tags: [],
                created: Date(timeIntervalSince1970: 1_767_225_600))
            return .json((try? JSONEncoder.courier.encode(note)) ?? Data(), status: 200)
        }
    return try await withMockServer(handlers: [notes]) { server in
        // `addStubs(json:)` takes the mapping as `Data`; a stub answers before the responder.
        let stub =
            #"{"request": {"method": "GET", "urlPath": "/notes/n404"}, "#
            + #""response": {"status": 404, "body": "no such note"}}"#
        try server.addStubs(json: Data(stub.utf8))
        let transport = CurlTransport()
        let manager = NetworkManager(transport: transport, baseURL: server.baseURL)
        let found = try await manager.send(NotesAPI.note(id: "n7")).value
        var missing: (status: Int?, body: String) = (nil, "")
        do throws(CourierError) {
            _ = try await manager.send(NotesAPI.note(id: "n404"))
        } catch {
            // The response's status and body are the error's own: `error.status`, `error.body`.
            missing = (error.status, String(decoding: error.body ?? Data(), as: UTF8.self))
        }
        await transport.shutdown()
        return (found, missing.status, missing.body)
    }
}
