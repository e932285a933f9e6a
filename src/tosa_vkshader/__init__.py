"""tosa-vkshader: validate and generate TOSA custom ops that embed a Vulkan compute shader."""

__version__ = "0.1.0"
