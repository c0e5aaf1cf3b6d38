import Courier

print("courier: skeleton")
