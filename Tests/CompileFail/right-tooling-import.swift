// Must compile: a tool imports the contract model beside the declarations and reads their operations.
import CourierContract
import CourierContractModel
import Endpoints

func writeDocument() throws -> JSONValue {
    OpenAPIWriter.make(title: "Social", operations: PostsEndPoint.operations)
}
