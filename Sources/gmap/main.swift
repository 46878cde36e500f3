print("gmap")
